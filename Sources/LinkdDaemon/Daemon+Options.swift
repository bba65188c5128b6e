import FoundationEssentials

extension Daemon {
    /// The daemon's settings.
    package struct Options: Sendable {
        /// `--socket PATH`; `nil` for `$XDG_RUNTIME_DIR/linkd/socket`.
        package var socket: String?
        /// `--idle-exit SEC`; default 30 s.
        package var idleExit: Duration = .seconds(30)
        /// How long an exec program may take to read its link (`LINKD_EXEC_TIME_LIMIT`, seconds; default 120).
        package var execTimeLimit: Duration = .seconds(120)
        /// How long running work may take to finish after the first SIGTERM.
        package var drainDeadline: Duration = .seconds(10)
        /// How long a `forward` link waits for its app (`LINKD_FORWARD_TTL`, seconds; default 10 minutes).
        package var forwardTTL: Double = 600
        /// How long an app's window may take to answer a reset's question before it is asked elsewhere
        /// (`LINKD_APP_ANSWER_TIME_LIMIT`, seconds; default 120).
        package var appAnswerTimeLimit: Duration = .seconds(120)
        /// How many clients, programs and queued links the daemon takes on at once.
        package var limits = Limits()

        package init(
            socket: String? = nil,
            idleExit: Duration = .seconds(30),
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) {
            self.socket = socket
            self.idleExit = idleExit
            if let seconds = environment["LINKD_EXEC_TIME_LIMIT"].flatMap(Int.init), seconds > 0 {
                execTimeLimit = .seconds(seconds)
            }
            if let seconds = environment["LINKD_FORWARD_TTL"].flatMap(Double.init), seconds > 0 {
                forwardTTL = seconds
            }
            if let seconds = environment["LINKD_APP_ANSWER_TIME_LIMIT"].flatMap(Double.init), seconds > 0 {
                appAnswerTimeLimit = .seconds(seconds)
            }
        }
    }
}
