import LinkdSystem
import LinkdTestSupport
import LinkdWire
import Testing

@testable import LinkdDaemon

/// The `dbus` action through the service, with the D-Bus call replaced by one that keeps what it was given: the link
/// is recorded before the call and leaves the spool after it, whichever way it went; a failure is the app's, and its
/// text (which may quote the link) stays out of the log.
@Suite(.ownThread) struct DBusActionServiceTests {
    static let apps = #"""
        {"app": "com.example.A", "links": [
          {"match": "myapp://share/{id}", "action": {"dbus": "org.example.Share"}},
          {"match": "myapp://note/{id}", "action": "forward"}]}
        """#

    /// What the stand-in for `Open` was called with, and how it answers.
    final class Calls: Sendable {
        let calls = Lock<[(uris: [String], appID: String, spooled: Int)]>([])
        let failure: SystemError?
        /// The spool the call looks at: the link must be in it while the app is called.
        let spool = Lock<Spool?>(nil)

        init(failing failure: SystemError? = nil) { self.failure = failure }

        var action: DBusAction {
            DBusAction { uris, appID, _ throws(SystemError) in
                let spooled = self.spool.withLock { $0?.entries().entries.count ?? -1 }
                self.calls.withLock { $0.append((uris, appID, spooled)) }
                if let failure = self.failure { throw failure }
            }
        }
    }

    private func world(_ calls: Calls) throws -> LinkServiceTests.World {
        let world = try LinkServiceTests.World(apps: Self.apps, dbus: calls.action)
        calls.spool.withLock { $0 = world.service.spool }
        return world
    }

    @Test func theAppGetsTheLinkWhileItIsSpooledAndTheEntryGoesAfter() async throws {
        let calls = Calls()
        let world = try world(calls)
        let link = "myapp://share/7?x=1#access_token=a.b.c"
        let response = await world.service.open(link)
        #expect(response == .accepted(route: "myapp://share/{id}", app: "com.example.A", state: .delivered))
        let made = calls.calls.withLock { $0 }
        #expect(made.count == 1)
        #expect(made.first?.uris == [link] && made.first?.appID == "org.example.Share")
        #expect(made.first?.spooled == 1, "recorded before the app was called")
        #expect(world.spooled.isEmpty)
    }

    @Test func aFailedCallIsTheAppsFailureAndTheLinkLeavesTheSpool() async throws {
        let calls = Calls(failing: .busFailed(operation: "call Open", errno: .noEntry, detail: "no such app"))
        let world = try world(calls)
        let response = await world.service.open("myapp://share/8")
        #expect(response.failure?.kind == .unavailable)
        #expect(response.failure?.reason == .actionFailed)
        #expect(response.failure?.message == "com.example.A: failed to call Open: no such app", "\(response)")
        #expect(world.spooled.isEmpty)
    }

    /// A crashed daemon's entry is opened once more, with one more attempt counted; one already replayed, or whose
    /// link no longer routes to a D-Bus app, is dropped without a call.
    @Test func theReplayCallsTheAppOnceAndDropsWhatItMayNotCall() async throws {
        let calls = Calls()
        let world = try world(calls)
        let spool = world.service.spool
        let once = try spool.add(url: "myapp://share/1", kind: .dbus)
        var twice = try spool.add(url: "myapp://share/2", kind: .dbus)
        twice.attempts = 2
        try spool.write(twice)
        _ = try spool.add(url: "myapp://note/3", kind: .dbus)
        await world.service.replay(world.service.leftInSpool())
        let made = calls.calls.withLock { $0 }
        #expect(made.map(\.uris) == [[once.url]])
        #expect(world.spooled.isEmpty)
    }
}
