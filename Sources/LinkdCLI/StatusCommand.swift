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

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        _ = try ArgumentScanner(arguments, known: [], command: Self.name)
    }

    func run(_ console: Console) async -> ExitCode {
        for line in DesktopStatus.report() { console.write(line + "\n") }
        return .success
    }
}
