import LinkdWire

/// What an action may use of the daemon: the spool, the log, the daemon's keep-alive and stop, and the flights of
/// the links in progress. It cannot route a link, read the configuration or reach another action: what actions share
/// (``ProgramDelivery``, the `forward` queue) is given to them when they are made (``ActionSet``).
struct ActionContext: Sendable {
    let spool: Spool
    let log: DaemonLog
    /// Kept up while an action has work the daemon must not exit under.
    let activity: Activity
    let shutdown: Shutdown
    /// The runs of links in progress, which an open of the same link joins.
    let flights: Flights
}
