import Foundation
import LinkdConfig
import LinkdTestSupport
import LinkdWire
import Testing

@testable import LinkdDaemon

/// Whether an action can take a link now, asked before a link a browser could open is handed to it: a program that
/// is there, an app that has subscribed, a D-Bus name the bus knows.
@Suite struct CanTakeNowTests {
    @Test func anExecLinkCanBeTakenWhenItsProgramIsThere() async throws {
        // A program found when the configuration was read, and removed since.
        let gone = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: gone, contents: Data("#!/bin/sh\n".utf8)))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: gone)
        let world = try LinkServiceTests.World(
            apps: #"""
                {"app": "com.example.A", "links": [
                  {"match": "myapp://here", "action": {"exec": ["/bin/true"]}},
                  {"match": "myapp://gone", "action": {"exec": ["\#(gone)"]}},
                  {"match": "myapp://session", "format": "supabase", "action": {"signin": {"exec": ["/bin/true"]}}}],
                 "backend": {"kind": "supabase", "url": "http://127.0.0.1:9", "apiKey": "k"}}
                """#
        )
        #expect(await world.service.canTakeNow("myapp://gone"))
        try FileManager.default.removeItem(atPath: gone)
        #expect(await world.service.canTakeNow("myapp://here"))
        #expect(await !world.service.canTakeNow("myapp://gone"))
        #expect(await world.service.canTakeNow("myapp://session?code=abc"))
        #expect(await !world.service.canTakeNow("myapp://nobody-claims-this"))
    }

    @Test func aForwardLinkCanBeTakenOnceTheAppHasSubscribed() async throws {
        let world = try LinkServiceTests.World(
            apps: #"{"app": "com.example.A", "links": [{"match": "myapp://inbox", "action": "forward"}]}"#
        )
        #expect(await !world.service.canTakeNow("myapp://inbox"))
        let subscriber = await world.service.subscriptions.subscribe(
            "com.example.A",
            receivesSessions: false,
            context: world.service.context
        )
        #expect(await world.service.canTakeNow("myapp://inbox"))
        await world.service.subscriptions.unsubscribe(
            "com.example.A",
            id: subscriber.id,
            context: world.service.context
        )
        #expect(await !world.service.canTakeNow("myapp://inbox"))
    }

    @Test(arguments: [true, false])
    func aDBusLinkCanBeTakenWhenTheBusKnowsTheName(_ known: Bool) async throws {
        let world = try LinkServiceTests.World(
            apps: #"{"app": "com.example.A", "links": "#
                + #"[{"match": "myapp://share", "action": {"dbus": "com.example.A"}}]}"#,
            dbus: DBusAction(opener: { _, _, _ in }, nameIsKnown: { $0 == "com.example.A" && known })
        )
        #expect(await world.service.canTakeNow("myapp://share") == known)
    }

    /// A clicked web link (`"web": true`) its app cannot take now goes back untouched (`app_unavailable`, nothing
    /// spooled, nothing asked of a backend); one it can take, and an emailed link of the app's backend as clicked, are
    /// taken as any link; a scanner's wrapper around an emailed link is not followed.
    @Test func aClickedWebLinkTheAppCannotTakeNowGoesBackUntouched() async throws {
        let closed = try ClosedPort()
        let backend = "http://127.0.0.1:\(closed.port)"
        let world = try LinkServiceTests.World(
            apps: #"""
                {"app": "com.example.A", "links": [
                  {"match": "https://a.example/inbox/{id}", "action": "forward"},
                  {"match": "myapp://reset", "format": "supabase", "action": "reset"}],
                 "backend": {"kind": "supabase", "url": "\#(backend)", "apiKey": "k"}}
                """#
        )
        let unavailable = WireProtocol.Response.failed(.appUnavailable)
        #expect(await world.service.open("https://a.example/inbox/1", web: true) == unavailable)
        #expect(await world.service.open("https://nobody.example/x", web: true) == unavailable)
        #expect(await world.service.open("https://a.example/inbox/1#a=1&a=2", web: true) == unavailable)
        #expect(world.spooled.isEmpty)
        let subscriber = await world.service.subscriptions.subscribe(
            "com.example.A",
            receivesSessions: false,
            context: world.service.context
        )
        #expect(await world.service.open("https://a.example/inbox/2", web: true).failure == nil)
        #expect(world.spooled.count == 1)
        // The backend's emailed link is taken (and followed: here nothing answers at its address).
        let emailed = backend + "/auth/v1/verify?token=t&type=recovery&redirect_to=myapp%3A%2F%2Freset"
        let followed = await world.service.open(emailed, web: true)
        #expect(followed != unavailable && followed.failure != nil)
        // Wrapped, it is not the backend's link as clicked: it goes back.
        let wrapped =
            "https://www.google.com/url?q=" + emailed.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(await world.service.open(wrapped, web: true) == unavailable)
        await world.service.subscriptions.unsubscribe(
            "com.example.A",
            id: subscriber.id,
            context: world.service.context
        )
        withExtendedLifetime(closed) {}
    }
}
