import Foundation
import Glibc
import LinkdSystem
import Synchronization
import Testing

/// The threads libcurl transfers run on: as many at once as calls need, and kept, so that none exits (and runs
/// OpenSSL's thread-specific destructors) while the process may be exiting.
@Suite struct BlockingCallTests {
    @Test func theThreadACallRanOnIsStillThereAfterwards() async throws {
        let thread = await BlockingCall.run { threadID() }
        #expect(!thread.isEmpty && thread != threadID())
        try await Task.sleep(for: .milliseconds(200))
        #expect(FileManager.default.fileExists(atPath: "/proc/\(thread)"))
    }

    @Test func callsMadeAtOnceRunAtOnceOnThreadsOfTheirOwn() async {
        let count = 8
        let started = Counter()
        let results = await withTaskGroup(of: (thread: String, sawAll: Bool).self) { group in
            for _ in 0..<count {
                group.addTask {
                    await BlockingCall.run {
                        // Each call waits for all the others: it returns true only if all ran at the same time.
                        started.value.add(1, ordering: .sequentiallyConsistent)
                        let deadline = ContinuousClock.now + .seconds(10)
                        while started.value.load(ordering: .sequentiallyConsistent) < count && .now < deadline {
                            usleep(1000)
                        }
                        return (threadID(), started.value.load(ordering: .sequentiallyConsistent) == count)
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
}

/// The calling thread as `PID/task/TID` (what `/proc/thread-self` names), "" when it cannot be read.
private func threadID() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
}

private final class Counter: Sendable {
    let value = Atomic(0)

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
