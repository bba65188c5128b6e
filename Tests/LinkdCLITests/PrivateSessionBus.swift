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
        let app = try SpawnedProcess(
            "/usr/bin/python3",
            [appScript.path],
            environment: ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": address, "LINKD_TEST_HOLD": "1"],
            stderrPath: root.appendingPathComponent("app.log").path
        )
        let deadline = Date().addingTimeInterval(10)
        while startedLines().isEmpty && Date() < deadline { usleep(20_000) }
        return app
    }

    func openedURIs() -> [String] { lines(of: opened) }

    func startedLines() -> [String] { lines(of: started) }

    private func lines(of file: URL) -> [String] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
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
