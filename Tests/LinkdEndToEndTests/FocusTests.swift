import Foundation
import Glibc
import LinkdTestSupport
import LinkdWire
import Testing

/// The click's focus — `XDG_ACTIVATION_TOKEN` and `DESKTOP_STARTUP_ID` in the environment of the `linkd open` the
/// desktop ran — reaches what the link wakes, once, and nothing keeps it: an `exec` program's environment,
/// `org.freedesktop.Application.Open`'s platform data, a subscriber's `Link` signal.
@Suite(.ownThread) struct FocusTests {
    static let click = ["XDG_ACTIVATION_TOKEN": "focus-token-4711", "DESKTOP_STARTUP_ID": "linkd-startup-4711_TIME0"]

    @Test func theProgramOfTheClicksFirstLinkGetsItAndNoOtherDoes() throws {
        let world = try DaemonHarness()
        let opened = try world.run(["open", "myapp://note/1", "myapp://note/2"], extra: Self.click)
        #expect(opened.status == 0, "\(opened)")
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 2 })
        let recorded = (try? String(contentsOf: world.processInfoLog, encoding: .utf8)) ?? ""
        #expect(recorded.components(separatedBy: "XDG_ACTIVATION_TOKEN=focus-token-4711\n").count == 2, "\(recorded)")
        #expect(recorded.components(separatedBy: "DESKTOP_STARTUP_ID=linkd-startup-4711_TIME0\n").count == 2)
        #expect(!world.daemonLog().contains("4711"))
    }

    @Test func theDBusActionPassesItAsOpensPlatformData() throws {
        let bus = try PrivateSessionBus(activatable: false)
        let world = try DaemonHarness()
        let config =
            #"{"app": "org.example.LinkdTest", "links": [{"match": "myapp://share/{id}", "action": {"dbus": "org.example.LinkdTest"}}]}"#
        try Data(config.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/dbus-test.json"))
        let app = try bus.startApp()
        defer {
            app.terminate()
            app.waitUntilExit()
        }
        let opened = try world.run(
            ["open", "myapp://share/5"],
            extra: Self.click.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 }
        )
        #expect(opened.status == 0, "\(opened)")
        #expect(bus.startedLines().contains("activation-token focus-token-4711"), "\(bus.startedLines())")
        #expect(!world.daemonLog().contains("4711"))
    }

    @Test func aSubscriberGetsItWithTheLink() throws {
        let world = try AppInterfaceTests.World()
        defer { world.daemon.terminate() }
        let (app, output) = try world.startApp()
        defer { app.terminate() }
        #expect(world.lines(of: output, count: 1) == ["subscribed as com.example.Notes"])
        let opened = try world.world.run(["open", "notes://note/6"], extra: Self.click)
        #expect(opened.status == 0, "\(opened)")
        #expect(
            world.lines(of: output, count: 2).last == "link notes://note/{id} id=6 (activation token focus-token-4711)"
        )
        #expect(!world.world.daemonLog().contains("4711"))
    }

    /// A `forward` subscriber on the socket gets the focus beside the link, as `"platform_data"`; a link clicked
    /// without one has none.
    @Test func aSocketSubscriberGetsItWithTheLink() throws {
        let world = try DaemonHarness()
        let subscriber = try world.ensureDaemon().subscribe()
        defer { close(subscriber) }
        let payload = { (line: String?) -> [String: Any]? in
            line.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        }
        let opened = try world.run(["open", "myapp://inbox/8"], extra: Self.click)
        #expect(opened.status == 0, "\(opened)")
        let focused = try #require(payload(subscriber.readLine()))
        #expect(focused["url"] as? String == "myapp://inbox/8")
        #expect(
            focused["platform_data"] as? [String: String]
                == ["activation-token": "focus-token-4711", "desktop-startup-id": "linkd-startup-4711_TIME0"]
        )
        #expect(try world.run(["open", "myapp://inbox/9"]).status == 0)
        let plain = try #require(payload(subscriber.readLine()))
        #expect(plain["url"] as? String == "myapp://inbox/9" && plain["platform_data"] == nil)
        #expect(!world.daemonLog().contains("4711"))
    }
}
