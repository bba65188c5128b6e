import LinkdSystem

/// The daemon's way down, in two phases: the first SIGTERM (or SIGINT, or the idle exit) stops it taking new work —
/// the listener stops, every connection stops reading — and running work may finish; the drain's deadline or a
/// second signal cancels what is left.
final class Shutdown: Sendable {
    private struct State: Sendable {
        var isStopping = false
        var signals = 0
        var connections: Set<FileDescriptor> = []
    }

    private let state = Condition(State())

    /// Whether the daemon has begun to stop.
    var isStopping: Bool { state.value.isStopping }

    /// Tracks an open connection, so that ``stop()`` can end its reading; one opened after the stop stops reading
    /// at once.
    func opened(_ connection: FileDescriptor) {
        let isStopping = state.update { state -> Bool in
            state.connections.insert(connection)
            return state.isStopping
        }
        if isStopping { connection.shutDownReading() }
    }

    /// The connection is closed: it is no longer tracked.
    func closed(_ connection: FileDescriptor) {
        state.update { _ = $0.connections.remove(connection) }
    }

    /// Begins the stop: every connection reads what its client already sent and then sees the end of it, so an
    /// idle client is let go and a busy one finishes its request first.
    func stop() {
        let connections = state.update { state -> Set<FileDescriptor> in
            state.isStopping = true
            return state.connections
        }
        for connection in connections { connection.shutDownReading() }
    }

    /// Returns once the stop has begun.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    func waitUntilStopping() async throws {
        try await state.wait { $0.isStopping }
    }

    /// Counts a SIGTERM or SIGINT.
    func signalled() {
        state.update { $0.signals += 1 }
    }

    /// Returns once `count` signals have arrived.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    func waitForSignals(_ count: Int) async throws {
        try await state.wait { $0.signals >= count }
    }
}
