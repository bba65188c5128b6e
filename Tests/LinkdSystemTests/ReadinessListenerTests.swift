import Foundation
import LinkdSystem
import Testing

/// The socket a started daemon reports `READY=1` to: the datagram a notifier sends is seen, other states are not
/// readiness, and a wait with no report ends at its deadline.
@Suite struct ReadinessListenerTests {
    private func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString.prefix(8))").path
    }

    @Test func aReadyDatagramIsSeenAfterOtherStates() async throws {
        let path = path()
        let listener = try ReadinessListener(path: path)
        defer { listener.close() }
        #expect(Notifier.sendDatagram("STATUS=starting", to: path) >= 0)
        #expect(Notifier.sendDatagram("STATUS=up\nREADY=1", to: path) >= 0)
        #expect(await listener.waitForReady(deadline: .now + .seconds(10)))
    }

    @Test func withoutAReportTheWaitEndsAtItsDeadline() async throws {
        let path = path()
        let listener = try ReadinessListener(path: path)
        defer { listener.close() }
        #expect(Notifier.sendDatagram("STOPPING=1", to: path) >= 0)
        let deadline = ContinuousClock.now + .milliseconds(100)
        #expect(await !listener.waitForReady(deadline: deadline))
        #expect(ContinuousClock.now >= deadline)
    }

    @Test func aStaleFileIsReplacedAndCloseRemovesIt() throws {
        let path = path()
        #expect(FileManager.default.createFile(atPath: path, contents: Data("stale".utf8)))
        let listener = try ReadinessListener(path: path)
        listener.close()
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
