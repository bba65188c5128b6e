import Foundation
import Glibc
import LinkdTestSupport
import LinkdWire
import Testing

/// `{"forward": {"start": "desktop"}}`: a link for an app no one is subscribed as starts the app from its desktop
/// entry — its `Exec`, or D-Bus activation when it is `DBusActivatable` — and reaches it once it subscribes, once.
@Suite(.ownThread) struct AppStartTests {
    static let app = "com.example.Notes"

    /// A world whose app starts from its desktop entry `entry` (in the world's `XDG_DATA_HOME`), a session bus with
    /// `services`, and a daemon on it.
    struct World {
        let world: DaemonHarness
        let bus: PrivateSessionBus
        let daemon: SpawnedProcess
        /// Where the started app writes what it prints.
        let output: URL

        init(entry: (URL) -> String, services: (URL, DaemonHarness) -> [String: String] = { _, _ in [:] }) throws {
            world = try DaemonHarness()
            output = world.root.appendingPathComponent("app.out")
            let config =
                #"{"app": "com.example.Notes", "links": [{"match": "notes://note/{id}", "action": {"forward": {"start": "desktop"}}}]}"#
            try Data(config.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/notes.json"))
            let applications = world.root.appendingPathComponent("data/applications")
            try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
            let desktop = "[Desktop Entry]\nType=Application\nName=Notes\n" + entry(output) + "\n"
            try Data(desktop.utf8).write(to: applications.appendingPathComponent(AppStartTests.app + ".desktop"))
            bus = try PrivateSessionBus(activatable: false, services: services(output, world))
            daemon = try world.startDaemon(
                extra: [
                    "DBUS_SESSION_BUS_ADDRESS": bus.address,
                    "XDG_DATA_HOME": world.root.appendingPathComponent("data").path,
                ],
                stderrPath: try world.logFile()
            )
            #expect(world.waitForEvent(.busNameTaken, within: .seconds(10)))
        }

        func lines(count: Int, timeout: Duration = .seconds(20)) -> [String] {
            let read = {
                ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            }
            _ = world.waitUntil(timeout, folders: [world.root.path]) { read().count >= count }
            return read()
        }
    }

    static var exampleApp: String {
        LinkdProcess.executable.deletingLastPathComponent().appendingPathComponent("linkd-example-app").path
    }

    @Test func aLinkStartsTheAppByItsExecOnceAndReachesItWhenItSubscribes() throws {
        let world = try World { output in
            #"Exec=/bin/sh -c "exec \#(AppStartTests.exampleApp) com.example.Notes >>\#(output.path) 2>&1" %U"#
        }
        defer { world.daemon.terminate() }
        let first = try world.world.run(["open", "notes://note/1"])
        let second = try world.world.run(["open", "notes://note/2"])
        #expect(first.stdout == "queued: notes://note/{id} → com.example.Notes\n", "\(first)")
        #expect(second.status == 0, "\(second)")
        #expect(
            world.lines(count: 3) == [
                "subscribed as com.example.Notes", "link notes://note/{id} id=1", "link notes://note/{id} id=2",
            ],
            "\(world.world.daemonLog())"
        )
        let third = try world.world.run(["open", "notes://note/3"])
        #expect(third.stdout == "delivered: notes://note/{id} → com.example.Notes\n", "\(third)")
        #expect(world.lines(count: 4).last == "link notes://note/{id} id=3")
        #expect(world.world.waitForEvent(.taken, count: 3, within: .seconds(5)))
        #expect(world.world.daemonEvents().count { $0.matches(.appStarted, ["LINKD_APP": AppStartTests.app]) } == 1)
        #expect(world.world.spooledURLs().isEmpty)
    }

    /// The Python example, a GApplication whose entry is `DBusActivatable`: D-Bus starts it for linkd's `Activate`.
    @Test func aDBusActivatableAppIsActivatedAndThePythonExampleGetsTheLink() throws {
        let script = DocumentationTests.repository.appendingPathComponent("share/examples/linkd-app.py").path
        // The bus starts the app with its own environment: the world's runtime folder (the key) is given.
        let services = { (output: URL, world: DaemonHarness) -> [String: String] in
            let command =
                "exec env XDG_RUNTIME_DIR=\(world.runtime.path) /usr/bin/python3 \(script) \(AppStartTests.app) "
                + "--gapplication-service >>\(output.path) 2>&1"
            return [
                AppStartTests.app: "[D-BUS Service]\nName=\(AppStartTests.app)\nExec=/bin/sh -c '\(command)'\n"
            ]
        }
        let world = try World(entry: { _ in "DBusActivatable=true\nExec=/usr/bin/false" }, services: services)
        defer { world.daemon.terminate() }
        let opened = try world.world.run(["open", "notes://note/5?x=1"])
        #expect(opened.status == 0, "\(opened)")
        #expect(
            world.lines(count: 2) == ["subscribed as com.example.Notes", "link notes://note/{id} id=5 x=1"],
            "\(world.world.daemonLog())"
        )
        // Logged once the app answered the activation, which may come after it took its link.
        #expect(world.world.waitForEvent(.appStarted, fields: ["LINKD_APP": AppStartTests.app], within: .seconds(30)))
    }

    @Test func anAppWithNoDesktopEntryIsNotStartedAndItsLinkWaits() throws {
        let world = try World(entry: { _ in "Exec=/usr/bin/true" })
        defer { world.daemon.terminate() }
        try FileManager.default.removeItem(
            at: world.world.root.appendingPathComponent("data/applications/com.example.Notes.desktop")
        )
        let opened = try world.world.run(["open", "notes://note/6"])
        #expect(opened.stdout == "queued: notes://note/{id} → com.example.Notes\n")
        #expect(
            world.world.waitUntil(.seconds(10)) {
                world.world.daemonLog().contains(
                    "com.example.Notes cannot be started for its links: no desktop entry com.example.Notes.desktop"
                )
            }
        )
        #expect(world.world.spooledURLs() == ["notes://note/6"])
    }
}
