/// One part of the running daemon: the server, the program supervisor, the `forward` queue's chores, the association
/// files' refresh, the signals, the configuration's watch, the replay of the spool. The daemon is the list of them
/// (``Daemon/Parts/services(server:signals:watch:loader:replaying:)``): it starts each in order, and stops them all
/// the one way — when the stop begins each hears ``stopping``, the last started first, and every one is cancelled
/// once running work has drained.
struct DaemonService: Sendable {
    /// What the log calls it.
    let name: String
    /// Runs until the daemon's stop cancels it, or until its work is done.
    let run: @Sendable () async -> Void
    /// What it does when the stop begins, before running work drains: take no new work, let go of what cannot wait.
    let stopping: @Sendable () async -> Void

    init(
        _ name: String,
        stopping: @escaping @Sendable () async -> Void = {},
        run: @escaping @Sendable () async -> Void
    ) {
        self.name = name
        self.run = run
        self.stopping = stopping
    }
}
