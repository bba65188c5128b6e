import FoundationEssentials
import Glibc
import LinkdDaemon

/// `linkd daemon [--socket PATH] [--idle-exit SEC]`.
struct DaemonCommand: Command {
    static let name = "daemon"
    static let abstract = "Run the linkd daemon (socket-activated by systemd, or started by 'linkd open')."
    static let usage = "linkd daemon [--socket <path>] [--idle-exit <seconds>]"
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        OPTIONS:
          --socket <path>         Listen on this socket instead of $XDG_RUNTIME_DIR/linkd/socket.
          --idle-exit <seconds>   Exit after this many seconds without clients (default: 30).
          -h, --help              Show help information.

        Under systemd the socket comes from LISTEN_FDS (packaging/systemd/linkd.socket).

        """

    var options = Daemon.Options()

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        var index = 0
        let words = arguments.map { String(decoding: $0, as: UTF8.self) }
        while index < words.count {
            switch words[index] {
            case "--socket", "--idle-exit":
                guard index + 1 < words.count else { throw .missingValue(words[index], command: Self.name) }
                if words[index] == "--socket" {
                    options.socket = words[index + 1]
                } else {
                    guard let seconds = Int(words[index + 1]), seconds > 0 else {
                        throw .badValue(words[index + 1], option: "--idle-exit", command: Self.name)
                    }
                    options.idleExit = .seconds(seconds)
                }
                index += 2
            default:
                throw .unknownOption(words[index], command: Self.name)
            }
        }
    }

    func run(_ console: Console) async -> ExitCode {
        if ProcessInfo.processInfo.environment["LINKD_AUTOSTART"] != nil {
            // Started by `linkd open`: leave its session, so its terminal's signals do not reach the daemon.
            unsetenv("LINKD_AUTOSTART")
            _ = setsid()
        }
        let status = await Daemon(options: options).run()
        return status == 0 ? .success : .unavailable
    }
}
