import LinkdSystem

/// The client connections served at once, against their limit.
final class ClientCount: Sendable {
    /// Whether a new connection is served.
    enum Admission: Equatable {
        case admitted
        /// Refused: `limit` are served already. `isFirst` for the first refusal since the count was under the limit,
        /// the one worth a log line.
        case refused(isFirst: Bool)
    }

    private struct State {
        var count = 0
        var hasRefused = false
    }

    /// The most connections served at once.
    let limit: Int
    private let state = Lock(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection, unless `limit` are served already.
    func admit() -> Admission {
        state.withLock { state in
            guard state.count < limit else {
                defer { state.hasRefused = true }
                return .refused(isFirst: !state.hasRefused)
            }
            state.count += 1
            state.hasRefused = false
            return .admitted
        }
    }

    /// An admitted connection has ended.
    ///
    /// - Returns: whether every place was taken until now, so that a place is free again.
    @discardableResult
    func left() -> Bool {
        state.withLock { state in
            defer { state.count -= 1 }
            return state.count == limit
        }
    }
}
