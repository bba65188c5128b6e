/// What keeps the daemon up: open connections, links in flight and running programs each hold it. The idle exit
/// and the shutdown's drain wait on it, as events and a timer, never by polling.
final class Activity: Sendable {
    private struct State: Sendable {
        var holds = 0
        var lastBusy = ContinuousClock.now
    }

    private let state = Condition(State())

    /// Something started that keeps the daemon up.
    func hold() {
        state.update { $0.holds += 1 }
    }

    /// Something that held the daemon ended.
    func release() {
        state.update {
            $0.holds -= 1
            $0.lastBusy = .now
        }
    }

    /// Returns once nothing holds the daemon.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    func waitUntilQuiet() async throws {
        try await state.wait { $0.holds == 0 }
    }

    /// Returns once nothing has held the daemon for `duration`: a wait for quiet, then a timer, again when
    /// something held it meanwhile.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    func waitUntilIdle(for duration: Duration) async throws {
        while true {
            try await waitUntilQuiet()
            let now = state.value
            if now.holds == 0 && now.lastBusy + duration <= .now { return }
            try await Task.sleep(until: now.lastBusy + duration, clock: .continuous)
        }
    }
}
