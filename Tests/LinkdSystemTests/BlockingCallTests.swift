import Foundation
import Glibc
import LinkdSystem
import Testing

/// The threads libcurl transfers run on: as many at once as calls need, and kept, so that none exits (and runs
/// OpenSSL's thread-specific destructors) while the process may be exiting.
@Suite struct BlockingCallTests {
    @Test func theThreadACallRanOnIsStillThereAfterwards() async throws {
        let thread = await BlockingCall.run { threadID() }
        #expect(!thread.isEmpty && thread != threadID())
        // A thread that ended after its call would say so by nothing a test can wait on: it is given the time to.
        try await Task.sleep(for: .milliseconds(200))
        #expect(FileManager.default.fileExists(atPath: "/proc/\(thread)"))
    }

    @Test func callsMadeAtOnceRunAtOnceOnThreadsOfTheirOwn() async {
        let count = 8
        let started = Barrier()
        let results = await withTaskGroup(of: (thread: String, sawAll: Bool).self) { group in
            for _ in 0..<count {
                group.addTask {
                    await BlockingCall.run {
                        // Each call waits for all the others: it returns true only if all ran at the same time.
                        (threadID(), started.arrive(andWaitFor: count, until: Date().addingTimeInterval(10)))
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.sawAll })
        #expect(Set(results.map { $0.thread }).count == count)
        #expect(BlockingCall.threadCount >= count)
        // The threads stay: calls made after take the idle ones.
        let threadsBefore = BlockingCall.threadCount
        let again = await BlockingCall.run { threadID() }
        #expect(FileManager.default.fileExists(atPath: "/proc/\(again)"))
        #expect(BlockingCall.threadCount <= threadsBefore + 1)  // a test running beside this one may hold one
    }

    /// A call with a time limit answers with nothing when its work is still blocked at the limit (here: until the
    /// test lets it go, after the answer), and with the value when the work is done first.
    @Test func aCallWithATimeLimitStopsWaitingForWorkStillBlocked() async {
        let gate = DispatchSemaphore(value: 0)
        let late = await BlockingCall.run(timeout: .milliseconds(100)) { () -> Int in
            gate.wait()
            return 1
        }
        gate.signal()
        #expect(late == nil)
        #expect(await BlockingCall.run(timeout: .seconds(10)) { 2 } == 2)
    }
}

/// The calling thread as `PID/task/TID` (what `/proc/thread-self` names), "" when it cannot be read.
private func threadID() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
}

/// Threads that arrive and wait, each woken as the next arrives, until enough have.
private final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private var arrived = 0  // guarded by `condition`

    /// Counts this thread in and waits until `count` have arrived or `deadline` passes; whether they all did.
    func arrive(andWaitFor count: Int, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        while arrived < count, condition.wait(until: deadline) {}
        return arrived >= count
    }
}
