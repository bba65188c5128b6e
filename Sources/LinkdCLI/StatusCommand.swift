import LinkdDaemon
import LinkdDesktop
import LinkdFormats
import LinkdWire

/// `linkd status [--json]`.
struct StatusCommand: Command {
    static let name = "status"
    static let abstract = "Show which schemes open in linkd, whether the daemon can be reached, and the apps loaded."
    static let usage = "linkd status [--json]"
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        \(CommandOption.helpBlock(options))

        Problems in the apps.d files are counted; 'linkd check' lists them.

        EXIT STATUS:
          0 every scheme linkd or an app claims opens in linkd, and the daemon can be reached (it listens,
          or systemd starts it); 1 otherwise.

        """

    static let options: [CommandOption] = [
        .flag(
            "--json",
            "Print one JSON object: schemes and the handler GIO resolves for each, the socket, the systemd "
                + "units, the apps and the problems found."
        )
    ]

    /// Whether to print JSON.
    var json: Bool

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        try scanner.requireNoPositionals(command: Self.name)
        json = scanner.flags.contains("--json")
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        let status = DesktopStatus.gather(actions: .linkd)
        if json {
            console.write(status.json.serialized + "\n")
        } else {
            for line in status.lines { console.write(line + "\n") }
        }
        return status.isHealthy ? .success : .unmatched  // 1: not every link would reach linkd
    }
}
