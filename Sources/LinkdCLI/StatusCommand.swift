import LinkdDesktop

/// `linkd status`.
struct StatusCommand: Command {
    static let name = "status"
    static let abstract = "Show which schemes open in linkd, whether the daemon runs, and the apps loaded."
    static let usage = "linkd status"
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        """

    static let options: [CommandOption] = []

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        _ = try Self.scan(arguments)
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        for line in DesktopStatus.report() { console.write(line + "\n") }
        return .success
    }
}
