import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// The `dbus` action: `org.freedesktop.Application.Open` through sd-bus on a private `dbus-daemon` session bus, to a
/// GApplication that is running or that the call D-Bus-activates.
@Suite(.ownThread, .serialized) struct DBusActionTests {
    static let link =
        "myapp://share/42?x=1&y=%2B%20$;`#access_token=eyJDBUSCANARY.b-c.d_e&refresh_token=DBUSCANARYr2t&type=recovery"

    private func world(for bus: PrivateSessionBus?) throws -> DaemonHarness {
        let world = try DaemonHarness()
        let app = """
            {"app": "org.example.LinkdTest", "links": [
              {"match": "myapp://share/{id}", "action": {"dbus": "\(PrivateSessionBus.appID)"}},
              {"match": "myapp://missing/{id}", "action": {"dbus": "org.example.NotInstalled"}}]}
            """
        try Data(app.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/dbus-test.json"))
        return world
    }

    private func run(_ world: DaemonHarness, _ bus: PrivateSessionBus?, _ links: [String]) throws -> LinkdProcess.Output
    {
        var extra = ["DBUS_SESSION_BUS_ADDRESS": bus?.address ?? "unix:path=\(world.root.path)/no-bus"]
        if bus == nil { extra["XDG_RUNTIME_DIR"] = world.runtime.path }
        return try world.run(["open"] + links, extra: extra)
    }

    @Test func aRunningAppReceivesTheLinkByteExact() throws {
        let bus = try PrivateSessionBus(activatable: false)
        let world = try world(for: bus)
        let app = try bus.startApp()
        defer {
            app.terminate()
            app.waitUntilExit()
        }
        #expect(bus.startedLines() == ["start "])
        let output = try run(world, bus, [Self.link, "myapp://share/43"])
        #expect(output.stdout == "delivered: myapp://share/{id} → org.example.LinkdTest\n".repeated(2))
        #expect(output.status == 0)
        #expect(bus.openedURIs() == [Self.link, "myapp://share/43"])
        #expect(bus.startedLines().count == 1)
        let log = (try? String(contentsOfFile: world.logPath, encoding: .utf8)) ?? ""
        #expect(log.contains("delivered to org.example.LinkdTest over D-Bus"))
        #expect(!log.contains("DBUSCANARY"))
        #expect(world.spooledURLs().isEmpty)
    }

    @Test func theCallDBusActivatesAnAppThatIsNotRunning() throws {
        let bus = try PrivateSessionBus(activatable: true)
        let world = try world(for: bus)
        #expect(bus.startedLines().isEmpty)
        let output = try run(world, bus, [Self.link])
        #expect(output.stdout == "delivered: myapp://share/{id} → org.example.LinkdTest\n")
        #expect(output.status == 0)
        #expect(bus.startedLines() == ["start --gapplication-service"])
        #expect(bus.openedURIs() == [Self.link])
        // Warm: the activated app is still running (3 s inactivity timeout) and gets the next link itself.
        #expect(try run(world, bus, ["myapp://share/44"]).status == 0)
        #expect(bus.openedURIs() == [Self.link, "myapp://share/44"])
        #expect(bus.startedLines().count == 1)
    }

    @Test func aLinkACrashedDaemonLeftInTheSpoolIsOpenedOnceByTheNextDaemon() throws {
        let bus = try PrivateSessionBus(activatable: true)
        let world = try world(for: bus)
        try FileManager.default.createDirectory(atPath: world.spoolPath, withIntermediateDirectories: true)
        let entry =
            #"{"id": "00000000000000aa0000000000000001", "url": "\#(Self.link)", "attempts": 1, "accepted": 1, "kind": "dbus"}"#
        try Data(entry.utf8).write(to: URL(fileURLWithPath: world.spoolPath + "/00000000000000aa0000000000000001.json"))
        let daemon = try world.start(
            ["daemon", "--idle-exit", "10"],
            extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        )
        defer { daemon.terminate() }
        #expect(world.waitUntil(.seconds(10), folders: [bus.root.path]) { bus.openedURIs() == [Self.link] })
        #expect(
            world.waitUntil(.seconds(3)) {
                world.spooledURLs().isEmpty
            }
        )
        #expect(try run(world, bus, ["myapp://share/45"]).status == 0)
        #expect(bus.openedURIs() == [Self.link, "myapp://share/45"])
    }

    @Test func anAppNoServiceProvidesIsReportedNamingTheBusError() throws {
        let bus = try PrivateSessionBus(activatable: false)
        let world = try world(for: bus)
        let output = try run(world, bus, ["myapp://missing/1"])
        #expect(output.status == 69)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.hasPrefix("Error: link 1: org.example.LinkdTest: "))
        #expect(output.stderr.contains("org.freedesktop.DBus.Error.ServiceUnknown"))
        #expect(output.stderr.contains("org.example.NotInstalled"))
        #expect(output.stderr.hasSuffix("[action_failed]\n"))
        #expect(world.spooledURLs().isEmpty)
    }

    @Test func anAppsRefusalIsReportedWithoutTheSecretsItQuotes() throws {
        let bus = try PrivateSessionBus(activatable: false)
        let world = try world(for: bus)
        let service = try bus.startRefusingService()
        defer {
            service.terminate()
            service.waitUntilExit()
        }
        #expect(bus.startedLines() == ["refusing"])
        let output = try run(world, bus, [Self.link])
        #expect(output.status == 69)
        #expect(output.stderr.contains("org.example.Error.Refused: cannot open myapp://share/42?x=1"))
        #expect(output.stderr.contains("access_token=<redacted>&refresh_token=<redacted>"))
        #expect(!output.stderr.contains("DBUSCANARY"))
        let log = (try? String(contentsOfFile: world.logPath, encoding: .utf8)) ?? ""
        #expect(log.contains("not delivered to org.example.LinkdTest over D-Bus"))
        #expect(!log.contains("DBUSCANARY"))
    }

    @Test func noSessionBusIsReportedAndTheDaemonKeepsServing() throws {
        let world = try world(for: nil)
        let output = try run(world, nil, ["myapp://share/1"])
        #expect(output.status == 69)
        #expect(output.stderr.contains("connect to the session bus"))
        #expect(try world.run(["open", "myapp://note/1"]).status == 0)
    }
}

extension String {
    fileprivate func repeated(_ count: Int) -> String { String(repeating: self, count: count) }
}
