/// The count of running `exec` programs against its limit: a link takes a slot before it is recorded, and gives it
/// back when its program was not started, could not take the link, or has exited.
final class ProgramSlots: Sendable {
    private struct Counts: Sendable {
        var running = 0
        var waiting = 0
    }

    /// The most programs running at once.
    let limit: Int
    /// How long a link waits for a slot when every one is taken.
    let wait: Duration
    private let counts = Condition(Counts())

    init(limit: Int, wait: Duration) {
        self.limit = limit
        self.wait = wait
    }

    /// Programs holding a slot now.
    var count: Int { counts.value.running }
    /// Links waiting for a slot now.
    var waitingCount: Int { counts.value.waiting }

    /// Takes a slot, waiting up to ``wait`` for a program to exit when none is free.
    ///
    /// - Returns: whether a slot was taken; `false` when the wait passed first, or the task was cancelled.
    func take() async -> Bool {
        if takeIfFree() { return true }
        counts.update { $0.waiting += 1 }
        defer { counts.update { $0.waiting -= 1 } }
        let deadline = ContinuousClock.now + wait
        while !takeIfFree() {
            guard ContinuousClock.now < deadline, await freed(before: deadline) else { return false }
        }
        return true
    }

    /// Gives a slot back.
    func give() {
        counts.update { $0.running -= 1 }
    }

    private func takeIfFree() -> Bool {
        counts.update { counts in
            guard counts.running < limit else { return false }
            counts.running += 1
            return true
        }
    }

    /// Whether a slot came free before `deadline` (another link may take it first).
    private func freed(before deadline: ContinuousClock.Instant) async -> Bool {
        let limit = limit
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await self.counts.wait { $0.running < limit }) != nil }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
