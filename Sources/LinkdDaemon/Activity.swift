import Synchronization

/// Counts open connections and remembers when the daemon last had something to do, for the idle exit.
final class Activity: Sendable {
    private struct State {
        var connections = 0
        var lastBusy = ContinuousClock.now
    }

    private let state = Mutex(State())

    func connectionOpened() {
        state.withLock {
            $0.connections += 1
            $0.lastBusy = .now
        }
    }

    func connectionClosed() {
        state.withLock {
            $0.connections -= 1
            $0.lastBusy = .now
        }
    }

    /// Marks now as busy (an action still runs).
    func touch() {
        state.withLock { $0.lastBusy = .now }
    }

    /// How long the daemon has had no connection; zero while one is open.
    var idleFor: Duration {
        state.withLock { $0.connections > 0 ? .zero : ContinuousClock.now - $0.lastBusy }
    }
}
