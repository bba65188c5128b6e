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

    /// Records an accepted link in the spool before any action runs, so that a crash cannot lose it.
    ///
    /// - Throws: a ``WireProtocol/Failure`` (temporary: `spool_full`, `disk_full` or `spool_unwritable`) after
    ///   logging why, when the spool cannot take the link: the link is refused before it is acknowledged.
    func record(_ url: String, kind: Spool.Entry.Kind) throws(WireProtocol.Failure) -> Spool.Entry {
        do throws(Spool.Failure) {
            return try spool.add(url: url, kind: kind)
        } catch {
            log.error("refused a link: \(error)", [("LINKD_REASON", error.reason.rawValue)])
            throw WireProtocol.Failure(kind: .temporary, reason: error.reason, message: error.description)
        }
    }

    /// `entry` with one more attempt written to the spool, for its replay; `nil` (the entry removed) when it was
    /// replayed once already: a link whose action crashed the daemon twice is not tried a third time.
    func markReplayed(_ entry: Spool.Entry) -> Spool.Entry? {
        guard entry.attempts < 2 else {
            log.warning("link \(entry.shortID) was already replayed once and is dropped")
            spool.remove(entry.id)
            return nil
        }
        var again = entry
        again.attempts += 1
        try? spool.write(again)
        return again
    }

    /// The answer when an action could not act on `link`; whoever joined its flight is told the same.
    func fail(_ failure: WireProtocol.Failure, link: ClaimedLink) async -> WireProtocol.Response {
        await flights.finish(link.flightKey, with: .failed(failure))
        return .failed(failure)
    }
}
