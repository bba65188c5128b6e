import LinkdConfig
import LinkdDesktop
import LinkdWire

/// `linkd register [--system] [SCHEME...]`.
struct RegisterCommand: Command {
    static let name = "register"
    static let abstract = "Make linkd open links of these schemes (default: every custom scheme in apps.d)."
    static let synopsis = Synopsis([.optional("--system"), .arguments(.schemes)], [.option("--web")])
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        ARGUMENTS:
          <scheme>                A URL scheme such as com.example.notes; never http, https, file or mailto.

        \(CommandOption.helpBlock(options))

        Writes $XDG_DATA_HOME/applications/linkd.desktop (Exec=<linkd> open %u), sets it as the default for
        x-scheme-handler/<scheme> in $XDG_CONFIG_HOME/mimeapps.list (every other line kept; a symbolic link is
        written through, keeping the file's mode), and runs update-desktop-database. A default it replaces is
        remembered in $XDG_STATE_HOME/linkd/replaced-defaults.json (with --system, /var/lib/linkd) and named:
        'registered: myapp (was: com.example.Notes.desktop)'; 'linkd unregister' puts it back.
        Registering twice changes nothing.

        With --web, writes $XDG_DATA_HOME/applications/linkd-web.desktop (Exec=<linkd> open --web %u) and makes it
        the default for x-scheme-handler/http and https. It records the browser those links opened in (it gets every
        web link no app's site assigns to the app), fetches the association files of the apps' web hosts and says
        each host's verification: 'registered: web links (others open in firefox-esr.desktop)'. With no browser
        installed it changes nothing (exit 69). 'linkd unregister --web' undoes it.

        """

    static let options: [CommandOption] = [
        .flag(
            "--system",
            "Register for every user (as root): /usr/share/applications/linkd.desktop and "
                + "/usr/share/applications/mimeapps.list, by default for the schemes claimed in /etc/linkd/apps.d "
                + "and /usr/share/linkd/apps.d; then schemes no app there claims any longer are unregistered (the "
                + "package runs this whenever an app's package adds or removes its apps.d file)."
        ),
        .flag(
            "--web",
            "Take web (http and https) links: those an app's own site assigns to the app open in the app, every "
                + "other one in the browser that had them."
        ),
    ]

    var schemes: [String]
    /// Whether to register for every user.
    var isSystem: Bool
    /// Whether to take web links (`--web`).
    var isWeb: Bool
    /// The folder the `--system` paths are under: `/`, but a temporary folder in tests.
    var systemRoot = "/"
    /// The linkd the desktop entry names: this one, but an installed path in tests that run in the test process.
    var executable = DaemonClient.executablePath

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        schemes = try scanner.schemes(command: Self.name)
        isSystem = scanner.flags.contains("--system")
        isWeb = scanner.flags.contains("--web")
        if isWeb, isSystem { throw .conflict("--web", "--system", command: Self.name) }
        if isWeb, let scheme = schemes.first { throw .conflict("--web", scheme, command: Self.name) }
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        if isWeb {
            if let warning = Self.buildFolderWarning(executable) { console.writeError(warning) }
            return try await WebRegistrationCommand.register(executable: executable, console)
        }
        let registrar = isSystem ? Registrar.system(root: systemRoot, actions: .linkd) : Registrar(actions: .linkd)
        if let warning = Self.buildFolderWarning(executable) { console.writeError(warning) }
        var schemes = self.schemes
        if schemes.isEmpty, isSystem { return try synchronize(registrar, console) }
        if schemes.isEmpty {
            schemes = registrar.claimedSchemes()
            guard !schemes.isEmpty else {
                throw .failed("no app in apps.d claims a custom scheme; name the schemes to register", exitCode: .usage)
            }
        }
        do throws(Registrar.Problem) {
            let outcome = try registrar.register(schemes, executable: executable)
            console.write(outcome.summary + "\n")
            return .success
        } catch {
            throw Self.failure(error)
        }
    }

    /// `register --system` with no scheme, as the package runs it whenever a package adds or removes a file in
    /// /usr/share/linkd/apps.d: every user's registration becomes exactly the schemes the system's apps claim.
    /// Schemes no app claims any longer are unregistered (their replaced default put back); none left is no error.
    private func synchronize(_ registrar: Registrar, _ console: Console) throws(CommandFailure) -> ExitCode {
        let claimed = registrar.claimedSchemes()
        do throws(Registrar.Problem) {
            let stale = try registrar.registeredSchemes().filter { !claimed.contains($0) }
            if !stale.isEmpty { console.write(try registrar.unregister(stale).summary + "\n") }
            if claimed.isEmpty {
                if stale.isEmpty {
                    console.write("no app in /etc/linkd/apps.d or /usr/share/linkd/apps.d claims a scheme\n")
                }
                return .success
            }
            console.write(try registrar.register(claimed, executable: executable).summary + "\n")
            return .success
        } catch {
            throw Self.failure(error)
        }
    }

    /// A warning when `executable`, the path the desktop entry is about to name, is in a SwiftPM build folder:
    /// the next `swift build` or `swift package clean` replaces or removes it, and every click then fails.
    static func buildFolderWarning(_ executable: String) -> String? {
        guard executable.contains("/.build/") else { return nil }
        return """
            warning: linkd runs from a build folder (\(executable)); links open only while that file is there.
            Install linkd (its Debian package, or packaging/install) and run the installed 'linkd register'.

            """
    }

    private static func failure(_ problem: Registrar.Problem) -> CommandFailure {
        .failed("\(problem)", exitCode: problem.isPermissionDenied ? .permission : .invalid)
    }
}
