import LinkdDesktop

/// `linkd register [--system] [SCHEME...]`.
struct RegisterCommand: Command {
    static let name = "register"
    static let abstract = "Make linkd open links of these schemes (default: every custom scheme in apps.d)."
    static let usage = "linkd register [--system] [<scheme> ...]"
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        ARGUMENTS:
          <scheme>                A URL scheme such as com.example.notes; never http, https, file or mailto.

        OPTIONS:
          --system                Register for every user (as root): /usr/share/applications/linkd.desktop and
                                  /usr/share/applications/mimeapps.list, by default for the schemes claimed in
                                  /etc/linkd/apps.d and /usr/share/linkd/apps.d.
          -h, --help              Show help information.

        Writes $XDG_DATA_HOME/applications/linkd.desktop (Exec=<linkd> open %u), sets it as the default for
        x-scheme-handler/<scheme> in $XDG_CONFIG_HOME/mimeapps.list (every other line kept; a symbolic link is
        written through, keeping the file's mode), and runs update-desktop-database. A default it replaces is
        remembered in $XDG_STATE_HOME/linkd/replaced-defaults.json (with --system, /var/lib/linkd) and named:
        'registered: myapp (was: com.example.Notes.desktop)'; 'linkd unregister' puts it back.
        Registering twice changes nothing.

        """

    static let options: [CommandOption] = [.flag("--system")]

    var schemes: [String]
    /// Whether to register for every user.
    var isSystem: Bool
    /// The folder the `--system` paths are under: `/`, but a temporary folder in tests.
    var systemRoot = "/"

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        schemes = try scanner.schemes(command: Self.name)
        isSystem = scanner.flags.contains("--system")
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        let registrar = isSystem ? Registrar.system(root: systemRoot) : Registrar()
        var schemes = self.schemes
        if schemes.isEmpty {
            schemes = registrar.claimedSchemes()
            guard !schemes.isEmpty else {
                throw .failed("no app in apps.d claims a custom scheme; name the schemes to register", exitCode: .usage)
            }
        }
        do throws(Registrar.Problem) {
            let outcome = try registrar.register(schemes, executable: DaemonClient.executablePath)
            console.write(outcome.summary + "\n")
            return .success
        } catch {
            throw .failed("\(error)", exitCode: error.isPermissionDenied ? .permission : .invalid)
        }
    }
}
