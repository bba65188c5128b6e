import Foundation
import LinkdSystem
import LinkdTestSupport
import Testing

/// What the tests wait on instead of polling: a change in a watched folder wakes a wait at once, a condition that
/// never holds ends at its deadline, and a process's exit is seen through its pidfd.
@Suite(.ownThread) struct FileEventsTests {
    private func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aFileWrittenInAWatchedFolderWakesTheWait() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The folder the file lands in does not exist yet: its parent is watched until it does.
        let nested = folder + "/later"
        let events = FileEvents([nested])
        let file = nested + "/done"
        Thread.detachNewThread {
            try? FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: file, contents: Data("ok".utf8))
        }
        // A deadline far past any wait of a loaded machine: returning before it, the wait was woken by the change.
        let deadline = ContinuousClock.now + .seconds(60)
        #expect(await events.wait(until: deadline) { FileManager.default.fileExists(atPath: file) })
        #expect(ContinuousClock.now < deadline, "woken by the change, not by the deadline")
    }

    @Test func aConditionThatNeverHoldsEndsAtItsDeadline() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let events = FileEvents([folder])
        let deadline = ContinuousClock.now + .milliseconds(100)
        #expect(!events.wait(until: deadline) { false })
        #expect(ContinuousClock.now >= deadline)
    }

    @Test func aProcessExitIsSeenAndALiveOneTimesOut() throws {
        let sleeper = try SpawnedProcess("/bin/sleep", ["30"], environment: [:])
        defer {
            sleeper.terminate()
            sleeper.waitUntilExit()
        }
        #expect(!ProcessExit.wait(for: [sleeper.pid], until: .now + .milliseconds(50)))
        let quick = try SpawnedProcess("/bin/true", [], environment: [:])
        #expect(ProcessExit.wait(for: [quick.pid], until: .now + .seconds(10)))
        quick.waitUntilExit()
        #expect(quick.terminationStatus == 0)
    }
}
