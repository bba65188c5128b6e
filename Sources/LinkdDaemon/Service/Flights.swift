import LinkdWire

/// The runs of links in progress, by key (``ClaimedLink/flightKey``): a link opened again while its first run is in
/// flight joins that run and gets its answer, rather than starting a second one.
actor Flights {
    /// One run of a link; repeats of the link wait for its answer.
    private struct Flight {
        var response: WireProtocol.Response?
        var waiters: [CheckedContinuation<WireProtocol.Response, Never>] = []
    }

    /// Kept up while a flight has no answer yet.
    private let activity: Activity
    /// Where a join is told: a test waits on the line.
    private let log: DaemonLog
    private var flights: [String: Flight] = [:]

    init(activity: Activity, log: DaemonLog) {
        self.activity = activity
        self.log = log
    }

    /// The answer of the run in flight for `key`, once it has one; `nil` after marking `key` in flight when none is.
    /// Nothing suspends between the check and the mark, so two opens arriving together start one run.
    func joinOrStart(_ key: String) async -> WireProtocol.Response? {
        guard var joined = flights[key] else {
            flights[key] = Flight()
            activity.hold()
            return nil
        }
        // The key's first line is the app id; the rest is the link, which the log never shows.
        let app = String(key.prefix { $0 != "\n" })
        log.info("a link for \(app) opened again while its first run goes on joins that run", [("LINKD_APP", app)])
        if let response = joined.response { return response }
        return await withCheckedContinuation { continuation in
            joined.waiters.append(continuation)
            flights[key] = joined
        }
    }

    /// How many opens wait for the answer of `key`'s run.
    func waiting(for key: String) -> Int { flights[key]?.waiters.count ?? 0 }

    /// Answers every open that joined `key`. With `keepingItOpen` the flight stays (a repeat gets `response`) until
    /// ``end(_:)``, without keeping the daemon up; otherwise it ends now.
    func finish(_ key: String, with response: WireProtocol.Response, keepingItOpen: Bool = false) {
        guard var flight = flights[key] else { return }
        let waiters = flight.waiters
        flight.waiters = []
        flight.response = response
        flights[key] = flight
        for waiter in waiters { waiter.resume(returning: response) }
        activity.release()  // answered: what stays open only joins repeats, and keeps the daemon up no longer
        if !keepingItOpen { flights.removeValue(forKey: key) }
    }

    /// Ends the flight of `key` (its program exited): the next open of the link is a new run.
    func end(_ key: String) {
        guard let flight = flights.removeValue(forKey: key) else { return }
        precondition(flight.waiters.isEmpty && flight.response != nil, "a flight ends after its answer")
    }
}
