import FoundationEssentials
import LinkdDaemon
import LinkdWire

/// `linkd daemon [--socket PATH] [--idle-exit SEC]`.
struct DaemonCommand: Command {
    static let name = "daemon"
    static let abstract = "Run the linkd daemon (socket-activated by systemd, or started by 'linkd open')."
    static let synopsis = Synopsis([.optional("--socket"), .optional("--idle-exit")])
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        \(CommandOption.helpBlock(options))

        Under systemd the socket comes from LISTEN_FDS (packaging/systemd/linkd.socket).

        """

    static let options: [CommandOption] = [
        .value("--socket", "<path>", "Listen on this socket instead of $XDG_RUNTIME_DIR/linkd/socket.", values: .files),
        .value(
            "--idle-exit",
            "<seconds>",
            "Exit after this many seconds without clients (default: 30).",
            values: .nothing
        ),
    ]

    var daemonOptions = Daemon.Options()

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        try scanner.requireNoPositionals(command: Self.name)
        daemonOptions.socket = scanner.values["--socket"]
        if let text = scanner.values["--idle-exit"] {
            guard let seconds = Int(text), seconds > 0 else {
                throw .badValue(text, option: "--idle-exit", command: Self.name)
            }
            daemonOptions.idleExit = .seconds(seconds)
        }
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        await Daemon(options: daemonOptions).run()
    }
}
