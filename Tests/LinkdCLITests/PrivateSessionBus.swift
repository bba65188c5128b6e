import Foundation
import Glibc

/// A private `dbus-daemon` session bus for one test, with its own service folder, and a GApplication test app
/// (`/usr/bin/python3` with `gi`) that implements `org.freedesktop.Application` and writes every URI it is opened
/// with to ``opened``.
final class PrivateSessionBus: Sendable {
    static let appID = "org.example.LinkdTest"

    let root: URL
    let address: String
    /// One line per URI the app was opened with, as `Gio.File.get_uri()` gives it.
    let opened: URL
    /// One line per start of the app, with its arguments.
    let started: URL
    let appScript: URL
    private let daemon: SpawnedProcess

    /// Starts the bus; with `activatable`, a `.service` file lets it D-Bus-activate the test app.
    init(activatable: Bool) throws {
        root = URL(fileURLWithPath: "/tmp/linkd-bus-\(UUID().uuidString.prefix(8))")
        let services = root.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        opened = root.appendingPathComponent("opened.txt")
        started = root.appendingPathComponent("started.txt")
        appScript = root.appendingPathComponent("app.py")
        try Data(Self.app(opened: opened.path, started: started.path).utf8).write(to: appScript)
        if activatable {
            let service = """
                [D-BUS Service]
                Name=\(Self.appID)
                Exec=/usr/bin/python3 \(appScript.path) --gapplication-service

                """
            try Data(service.utf8).write(to: services.appendingPathComponent("\(Self.appID).service"))
        }
        let socket = root.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <servicedir>\(services.path)</servicedir>
              <policy context="default">
                <allow send_destination="*"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>

            """
        let configFile = root.appendingPathComponent("session.conf")
        try Data(config.utf8).write(to: configFile)
        daemon = try SpawnedProcess(
            "/usr/bin/dbus-daemon",
            ["--config-file=\(configFile.path)", "--nofork", "--nopidfile"],
            environment: ["PATH": "/usr/bin:/bin"],
            stderrPath: root.appendingPathComponent("dbus.log").path
        )
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(10_000) }
    }

    deinit {
        daemon.terminate()
        daemon.waitUntilExit()
        try? FileManager.default.removeItem(at: root)
    }

    /// Starts the test app on this bus as an ordinary, already running process, and waits until it owns its name.
    func startApp() throws -> SpawnedProcess {
        try startPython(appScript, log: "app.log", extra: ["LINKD_TEST_HOLD": "1"]) { !$0.isEmpty }
    }

    /// Starts, in place of the app, a service that answers `Open` with a D-Bus error quoting the links it got, and
    /// waits until it owns the name.
    func startRefusingService() throws -> SpawnedProcess {
        let script = root.appendingPathComponent("refuse.py")
        try Data(Self.refusingService(started: started.path).utf8).write(to: script)
        return try startPython(script, log: "refuse.log") { !$0.isEmpty }
    }

    /// Starts a desktop notification server (`org.freedesktop.Notifications`) that writes each notification as
    /// `summary<TAB>body` to ``notifications``, and waits until it owns its name.
    func startNotificationServer() throws -> SpawnedProcess {
        let script = root.appendingPathComponent("notifications.py")
        try Data(Self.notificationServer(log: notifications.path, started: started.path).utf8).write(to: script)
        return try startPython(script, log: "notifications.log") { $0.contains("notifications") }
    }

    /// Runs `script` with /usr/bin/python3 on this bus and waits (up to 10 s) until ``started`` shows `isReady`.
    private func startPython(
        _ script: URL,
        log: String,
        extra: [String: String] = [:],
        isReady: ([String]) -> Bool
    ) throws -> SpawnedProcess {
        let process = try SpawnedProcess(
            "/usr/bin/python3",
            [script.path],
            environment: ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": address].merging(extra) { $1 },
            stderrPath: root.appendingPathComponent(log).path
        )
        let deadline = Date().addingTimeInterval(10)
        while !isReady(startedLines()) && Date() < deadline { usleep(20_000) }
        return process
    }

    /// The notifications shown so far, as `summary<TAB>body`.
    func notificationLines() -> [String] { lines(of: notifications) }

    var notifications: URL { root.appendingPathComponent("notifications.txt") }

    func openedURIs() -> [String] { lines(of: opened) }

    func startedLines() -> [String] { lines(of: started) }

    private func lines(of file: URL) -> [String] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// A bare `org.freedesktop.Application` whose `Open` fails with `org.example.Error.Refused: cannot open <uris>`.
    private static func refusingService(started: String) -> String {
        """
        import gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio, GLib

        XML = '<node><interface name="org.freedesktop.Application"><method name="Open">' \\
              '<arg type="as" direction="in"/><arg type="a{sv}" direction="in"/></method></interface></node>'

        def on_call(connection, sender, path, interface, method, parameters, invocation):
            uris = parameters.unpack()[0]
            invocation.return_dbus_error("org.example.Error.Refused", "cannot open " + " ".join(uris))

        def on_bus(connection, name):
            node = Gio.DBusNodeInfo.new_for_xml(XML)
            connection.register_object("/org/example/LinkdTest", node.interfaces[0], on_call, None, None)

        def on_name(connection, name):
            with open("\(started)", "a") as out:
                out.write("refusing\\n")

        Gio.bus_own_name(Gio.BusType.SESSION, "\(appID)", Gio.BusNameOwnerFlags.NONE, on_bus, on_name, None)
        GLib.MainLoop().run()

        """
    }

    private static func notificationServer(log: String, started: String) -> String {
        """
        import gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio, GLib

        XML = '<node><interface name="org.freedesktop.Notifications"><method name="Notify">' \\
              '<arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>' \\
              '<arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>' \\
              '<arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>' \\
              '</method></interface></node>'

        def on_call(connection, sender, path, interface, method, parameters, invocation):
            app, replaces, icon, summary, body, actions, hints, timeout = parameters.unpack()
            with open("\(log)", "a") as out:
                out.write(summary + "\\t" + body + "\\n")
            invocation.return_value(GLib.Variant("(u)", (1,)))

        def on_bus(connection, name):
            node = Gio.DBusNodeInfo.new_for_xml(XML)
            connection.register_object("/org/freedesktop/Notifications", node.interfaces[0], on_call, None, None)

        def on_name(connection, name):
            with open("\(started)", "a") as out:
                out.write("notifications\\n")

        Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.NONE,
                         on_bus, on_name, None)
        GLib.MainLoop().run()

        """
    }

    /// The GApplication: `started` is written once the app is registered on the bus (it owns its name then).
    private static func app(opened: String, started: String) -> String {
        """
        import os, sys
        import gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio

        def on_startup(app):
            with open("\(started)", "a") as out:
                out.write("start " + " ".join(sys.argv[1:]) + "\\n")

        def on_open(app, files, count, hint):
            with open("\(opened)", "a") as out:
                for f in files:
                    out.write(f.get_uri() + "\\n")

        app = Gio.Application(application_id="\(appID)", flags=Gio.ApplicationFlags.HANDLES_OPEN)
        app.connect("startup", on_startup)
        app.connect("open", on_open)
        app.connect("activate", lambda app: None)
        app.set_inactivity_timeout(3000)
        if os.environ.get("LINKD_TEST_HOLD"):
            app.hold()
        sys.exit(app.run(sys.argv))

        """
    }
}
