import LinkdConfig
import LinkdDesktop
import LinkdWire

/// `linkd unregister [--system] [SCHEME...]`.
struct UnregisterCommand: Command {
    static let name = "unregister"
    static let abstract = "Stop linkd opening links of these schemes (default: every scheme it registered)."
    static let synopsis = Synopsis([.optional("--system"), .arguments(.schemes)], [.option("--web")])
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        ARGUMENTS:
          <scheme>                A URL scheme linkd registered; with none, every one it registered.

        \(CommandOption.helpBlock(options))

        Where linkd is still the default for a scheme, puts back the default it replaced, exactly as it was
        ('unregistered: myapp (restored: com.example.Notes.desktop)'), or else removes linkd's line; removes
        linkd from the scheme's added associations and the scheme from linkd.desktop, and the desktop file
        itself when no scheme is left, so GIO no longer falls back to linkd. A default someone set since
        linkd registered stays, and so does every other entry.

        With --web, gives web links back to the browser linkd recorded: mimeapps.list is written back byte for byte
        when nothing else changed it since, else linkd's lines give way to the ones they replaced; linkd-web.desktop
        goes ('unregistered: web links (restored: firefox-esr.desktop)').

        """

    static let options: [CommandOption] = [
        .flag("--system", "Undo 'linkd register --system' (as root), in /usr/share/applications."),
        .flag("--web", "Give web (http and https) links back to the browser 'linkd register --web' replaced."),
    ]

    /// The schemes to unregister; none means every one linkd registered.
    var schemes: [String]
    /// Whether to undo the registration for every user.
    var isSystem: Bool
    /// Whether to give web links back (`--web`).
    var isWeb: Bool
    /// The folder the `--system` paths are under: `/`, but a temporary folder in tests.
    var systemRoot = "/"

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        schemes = try scanner.schemes(command: Self.name)
        isSystem = scanner.flags.contains("--system")
        isWeb = scanner.flags.contains("--web")
        if isWeb, isSystem { throw .conflict("--web", "--system", command: Self.name) }
        if isWeb, let scheme = schemes.first { throw .conflict("--web", scheme, command: Self.name) }
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        if isWeb { return try WebRegistrationCommand.unregister(console) }
        let registrar = isSystem ? Registrar.system(root: systemRoot, actions: .linkd) : Registrar(actions: .linkd)
        do throws(Registrar.Problem) {
            let outcome = try registrar.unregister(schemes.isEmpty ? nil : schemes)
            console.write(outcome.summary + "\n")
            return .success
        } catch {
            throw .failed("\(error)", exitCode: error.isPermissionDenied ? .permission : .invalid)
        }
    }
}
