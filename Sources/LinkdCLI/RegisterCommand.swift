import FoundationEssentials
import LinkdConfig
import LinkdDesktop
import LinkdRouting

/// `linkd register [SCHEME...]`.
struct RegisterCommand: Command {
    static let name = "register"
    static let abstract = "Make linkd open links of these schemes (default: every custom scheme in apps.d)."
    static let usage = "linkd register [<scheme> ...]"
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        ARGUMENTS:
          <scheme>                A URL scheme such as com.example.notes; never http, https, file or mailto.

        Writes $XDG_DATA_HOME/applications/linkd.desktop (Exec=<linkd> open %u), sets it as the default for
        x-scheme-handler/<scheme> in $XDG_CONFIG_HOME/mimeapps.list, and runs update-desktop-database.
        Registering twice changes nothing.

        """

    static let options: [CommandOption] = []

    var schemes: [String]

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        schemes = try scanner.schemes(command: Self.name)
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        var schemes = self.schemes
        if schemes.isEmpty {
            schemes = Set(ConfigLoader.installed().load().apps.flatMap { $0.links.map(\.match.scheme) })
                .filter { $0 != "https" && $0 != "http" }.sorted()
            guard !schemes.isEmpty else {
                throw .failed("no app in apps.d claims a custom scheme; name the schemes to register", exitCode: .usage)
            }
        }
        do {
            let changed = try Registrar().register(schemes, executable: DaemonClient.executablePath)
            let names = schemes.map { $0.lowercased() }.joined(separator: ", ")
            console.write(changed ? "registered: \(names)\n" : "already registered: \(names)\n")
            return .success
        } catch {
            throw .failed("\(error)", exitCode: .invalid)
        }
    }
}
