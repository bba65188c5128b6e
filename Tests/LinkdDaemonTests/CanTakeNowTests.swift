import Foundation
import LinkdConfig
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
        let subscriber = await world.service.forward.subscribe(
            "com.example.A",
            receivesSessions: false,
            context: world.service.context
        )
        #expect(await world.service.canTakeNow("myapp://inbox"))
        await world.service.forward.unsubscribe("com.example.A", id: subscriber.id, context: world.service.context)
        #expect(await !world.service.canTakeNow("myapp://inbox"))
    }

    @Test(arguments: [true, false])
    func aDBusLinkCanBeTakenWhenTheBusKnowsTheName(_ known: Bool) async throws {
        let world = try LinkServiceTests.World(
            apps: #"{"app": "com.example.A", "links": "#
                + #"[{"match": "myapp://share", "action": {"dbus": "com.example.A"}}]}"#,
            dbus: DBusAction(opener: { _, _ in }, nameIsKnown: { $0 == "com.example.A" && known })
        )
        #expect(await world.service.canTakeNow("myapp://share") == known)
    }
}
