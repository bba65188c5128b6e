import LinkdSystem
import LinkdWire

/// The runs of links in progress, by key (``ClaimedLink/flightKey``): a link opened again while its first run is in
/// flight joins that run and gets its answer, rather than starting a second one. A lock, not an actor: every link
/// whose action joins repeats starts and ends a flight, and neither suspends unless the link joins a run.
final class Flights: Sendable {
    /// One run of a link; repeats of the link wait for its answer.
    private struct Flight: Sendable {
        var response: WireProtocol.Response?
        var waiters: [Waiter] = []
    }

    /// A repeat waiting for the answer; `nil` when the run ended without one it could take.
    private typealias Waiter = CheckedContinuation<WireProtocol.Response?, Never>

    /// Kept up while a flight has no answer yet.
    private let activity: Activity
    /// Where a join is told: a test waits on the line.
    private let log: DaemonLog
    private let flights = Lock<[String: Flight]>([:])

    init(activity: Activity, log: DaemonLog) {
        self.activity = activity
        self.log = log
    }

    /// The answer of the run in flight for `key`, once it has one; `nil` after marking `key` in flight when none is.
    /// The check and the mark are one step under the lock, so two opens arriving together start one run.
    func joinOrStart(_ key: String) async -> WireProtocol.Response? {
        var toldTheJoin = false
        while true {
            let found = flights.withLock { flights -> Flight? in
                guard let flight = flights[key] else {
                    flights[key] = Flight()
                    return nil
                }
                return flight
            }
            guard let found else {
                activity.hold()
                return nil
            }
            if !toldTheJoin {
                // The key's first line is the app id; the rest is the link, which the log never shows.
                let app = String(key.prefix { $0 != "\n" })
                log.info(
                    "a link for \(app) opened again while its first run goes on joins that run",
                    [("LINKD_APP", app)]
                )
                toldTheJoin = true
            }
            if let response = found.response { return response }
            let answer = await withCheckedContinuation { (continuation: Waiter) in
                let now = flights.withLock { flights -> WireProtocol.Response?? in
                    guard let flight = flights[key] else { return .some(nil) }
                    if let response = flight.response { return .some(response) }
                    flights[key]?.waiters.append(continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
            // `nil`: the run ended between the look and the wait; the link starts a run of its own after all.
            if let answer { return answer }
        }
    }

    /// How many opens wait for the answer of `key`'s run.
    func waiting(for key: String) -> Int { flights.withLock { $0[key]?.waiters.count ?? 0 } }

    /// Answers every open that joined `key`. With `keepingItOpen` the flight stays (a repeat gets `response`) until
    /// ``end(_:)``, without keeping the daemon up; otherwise it ends now.
    func finish(_ key: String, with response: WireProtocol.Response, keepingItOpen: Bool = false) {
        let waiters = flights.withLock { flights -> [Waiter]? in
            guard var flight = flights[key] else { return nil }
            let waiters = flight.waiters
            flight.waiters = []
            flight.response = response
            flights[key] = keepingItOpen ? flight : nil
            return waiters
        }
        guard let waiters else { return }
        for waiter in waiters { waiter.resume(returning: response) }
        activity.release()  // answered: what stays open only joins repeats, and keeps the daemon up no longer
    }

    /// Ends the flight of `key` (its program exited): the next open of the link is a new run.
    func end(_ key: String) {
        guard let flight = flights.withLock({ $0.removeValue(forKey: key) }) else { return }
        precondition(flight.waiters.isEmpty && flight.response != nil, "a flight ends after its answer")
    }
}
