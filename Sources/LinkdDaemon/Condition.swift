import LinkdSystem

/// A value that tasks wait on: ``wait(until:)`` suspends until a predicate of the value holds, and every
/// ``update(_:)`` wakes the waiters whose predicate now holds. An event to wait for, never a poll.
final class Condition<Value: Sendable>: Sendable {
    private struct Waiter: Sendable {
        let predicate: @Sendable (Value) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State: Sendable {
        var value: Value
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
    }

    private let state: Lock<State>

    init(_ value: Value) {
        state = Lock(State(value: value))
    }

    /// The value now.
    var value: Value { state.withLock { $0.value } }

    /// Changes the value and wakes every waiter whose predicate holds afterwards; returns what `body` returns.
    @discardableResult
    func update<Result: Sendable>(_ body: @Sendable (inout Value) -> Result) -> Result {
        let (result, woken) = state.withLock { state -> (Result, [CheckedContinuation<Void, Never>]) in
            let result = body(&state.value)
            guard !state.waiters.isEmpty else { return (result, []) }
            let ready = state.waiters.filter { $0.value.predicate(state.value) }
            for id in ready.keys { state.waiters.removeValue(forKey: id) }
            // A closure, not a key path: a key path of a generic type is made again, by demangling, at every call.
            return (result, ready.values.map { $0.continuation })
        }
        for continuation in woken { continuation.resume() }
        return result
    }

    /// Returns once `predicate` holds for the value (at once when it already does).
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    func wait(until predicate: @escaping @Sendable (Value) -> Bool) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let isReady = state.withLock { state -> Bool in
                    guard !predicate(state.value), !Task.isCancelled else { return true }
                    state.waiters[id] = Waiter(predicate: predicate, continuation: continuation)
                    return false
                }
                if isReady { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
        try Task.checkCancellation()
    }
}
