import LinkdDaemon
import LinkdDesktop
import LinkdWire

/// `linkd unregister [--system] [SCHEME...]`.
struct UnregisterCommand: Command {
    static let name = "unregister"
    static let abstract = "Stop linkd opening links of these schemes (default: every scheme it registered)."
    static let usage = "linkd unregister [--system] [<scheme> ...]"
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

        """

    static let options: [CommandOption] = [
        .flag("--system", "Undo 'linkd register --system' (as root), in /usr/share/applications.")
    ]

    /// The schemes to unregister; none means every one linkd registered.
    var schemes: [String]
    /// Whether to undo the registration for every user.
    var isSystem: Bool
    /// The folder the `--system` paths are under: `/`, but a temporary folder in tests.
    var systemRoot = "/"

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        schemes = try scanner.schemes(command: Self.name)
        isSystem = scanner.flags.contains("--system")
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
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
