package import Foundation
import Glibc
import LinkdSystem

/// A private `dbus-daemon` session bus for one test, with its own service folder, and a GApplication test app
/// (`/usr/bin/python3` with `gi`) that implements `org.freedesktop.Application` and writes every URI it is opened
/// with to ``opened``.
///
/// The bus is stopped and its folder removed when the value goes.
package final class PrivateSessionBus: Sendable {
    /// The test app's D-Bus name.
    package static let appID = "org.example.LinkdTest"

    /// The bus's folder, `/tmp/linkd-bus-<random>`.
    package let root: URL
    /// The bus's address, the value for `DBUS_SESSION_BUS_ADDRESS`.
    package let address: String
    /// One line per URI the app was opened with, as `Gio.File.get_uri()` gives it.
    package let opened: URL
    /// One line per start of the app, with its arguments.
    package let started: URL
    /// The app's Python script.
    package let appScript: URL
    private let daemon: SpawnedProcess

    /// Starts the bus and waits until it listens; with `activatable`, a `.service` file lets it D-Bus-activate the
    /// test app; each of `services` (a name and the contents of its `.service` file) is activatable too.
    ///
    /// - Throws: when a file cannot be written or `dbus-daemon` does not start; ``HarnessError`` when it does not
    ///   print its address within 10 s.
    package init(activatable: Bool, services extra: [String: String] = [:]) throws {
        root = URL(fileURLWithPath: "/tmp/linkd-bus-\(UUID().uuidString.prefix(8))")
        let services = root.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        opened = root.appendingPathComponent("opened.txt")
        started = root.appendingPathComponent("started.txt")
        appScript = root.appendingPathComponent("app.py")
        try Data(Self.app(opened: opened.path, started: started.path).utf8).write(to: appScript)
        for (name, contents) in extra {
            try Data(contents.utf8).write(to: services.appendingPathComponent("\(name).service"))
        }
        if activatable {
            let service = """
                [D-BUS Service]
                Name=\(Self.appID)
                Exec=/usr/bin/python3 \(appScript.path) --gapplication-service

                """
            try Data(service.utf8).write(to: services.appendingPathComponent("\(Self.appID).service"))
        }
        address = "unix:path=\(root.appendingPathComponent("bus").path)"
        let configFile = root.appendingPathComponent("session.conf")
        try Data(Self.configuration(address: address, services: services.path).utf8).write(to: configFile)
        daemon = try Self.spawnPrintingReadiness(
            [
                "/usr/bin/dbus-daemon", "--config-file=\(configFile.path)", "--nofork", "--nopidfile",
                "--print-address=1",
            ],
            environment: ["PATH": "/usr/bin:/bin"],
            log: root.appendingPathComponent("dbus.log").path,
            awaiting: "dbus-daemon to print its address"
        )
    }

    deinit {
        daemon.terminate()
        daemon.waitUntilExit()
        try? FileManager.default.removeItem(at: root)
    }

    /// Starts the test app on this bus as an ordinary, already running process, and waits until it owns its name.
    ///
    /// - Throws: when it cannot be started; ``HarnessError`` when it exits or is not ready within 10 s.
    package func startApp() throws -> SpawnedProcess {
        try startPython(appScript, log: "app.log", extra: ["LINKD_TEST_HOLD": "1"])
    }

    /// Starts, in place of the app, a service that answers `Open` with a D-Bus error quoting the links it got, and
    /// waits until it owns the name.
    ///
    /// - Throws: when it cannot be started; ``HarnessError`` when it exits or is not ready within 10 s.
    package func startRefusingService() throws -> SpawnedProcess {
        let script = root.appendingPathComponent("refuse.py")
        try Data(Self.refusingService(started: started.path).utf8).write(to: script)
        return try startPython(script, log: "refuse.log")
    }

    /// Starts a desktop portal that serves `org.freedesktop.portal.OpenURI`, writing each link it is asked to open
    /// to ``portalOpened``, and waits until it owns its name.
    ///
    /// - Throws: when it cannot be started; ``HarnessError`` when it exits or is not ready within 10 s.
    package func startPortal() throws -> SpawnedProcess {
        let script = root.appendingPathComponent("portal.py")
        try Data(Self.portalService(log: portalOpened.path, started: started.path).utf8).write(to: script)
        return try startPython(script, log: "portal.log")
    }

    /// Where the portal of ``startPortal()`` writes the links it was asked to open.
    package var portalOpened: URL { root.appendingPathComponent("portal-opened.txt") }

    /// The links the portal was asked to open so far.
    package func portalOpenedLinks() -> [String] { lines(of: portalOpened) }

    /// How a test's notification server answers `Notify`, once it has recorded the call.
    package enum NotifyAnswer: Sendable {
        /// With an id, as a working server does.
        case id
        /// Never: it keeps the call and returns nothing, as a hung server does.
        case never
        /// With the D-Bus error `org.freedesktop.DBus.Error.Failed`.
        case error
        /// With an id, as a server that shows buttons (`GetCapabilities` names `actions`), and then, 0.2 s later, as
        /// the person pressing `button`: `ActionInvoked(id, <the key linkd sent for it>)`, then
        /// `NotificationClosed(id, 2)`.
        case pressing(Button)
        /// With an id, as a server that shows buttons; 0.2 s later a second connection on the bus emits
        /// `ActionInvoked(id, <the accept key linkd sent>)` and `ActionInvoked(id, "accept")`, and writes its unique
        /// name to ``forgedSignals``; 1.2 s later the server says the person dismissed it
        /// (`NotificationClosed(id, 2)`).
        case forgedThenDismissed
    }

    /// A button of a notification that asks: the first action linkd sends, or the second.
    package enum Button: Sendable {
        case accept, decline
    }

    /// Where the forging connection of ``NotifyAnswer/forgedThenDismissed`` writes its unique name once it emitted.
    package var forgedSignals: URL { root.appendingPathComponent("notifications.txt.forged") }

    /// Starts a desktop notification server (`org.freedesktop.Notifications`) that writes each notification as
    /// `summary<TAB>body` to ``notifications``, answers as `answer` says, and waits until it owns its name.
    ///
    /// - Throws: when it cannot be started; ``HarnessError`` when it exits or is not ready within 10 s.
    package func startNotificationServer(answering answer: NotifyAnswer = .id) throws -> SpawnedProcess {
        let script = root.appendingPathComponent("notifications.py")
        let source = Self.notificationServer(log: notifications.path, started: started.path, answering: answer)
        try Data(source.utf8).write(to: script)
        return try startPython(script, log: "notifications.log")
    }

    /// Runs `script` with /usr/bin/python3 on this bus and waits for the `ready` line it prints once it owns its
    /// name (after it wrote to ``started``).
    private func startPython(_ script: URL, log: String, extra: [String: String] = [:]) throws -> SpawnedProcess {
        try Self.spawnPrintingReadiness(
            ["/usr/bin/python3", script.path],
            environment: ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": address].merging(extra) { $1 },
            log: root.appendingPathComponent(log).path,
            awaiting: "'\(script.lastPathComponent)' to own its name"
        )
    }

    /// Starts `arguments` with its standard output on a pipe and standard error to `log`, and waits (up to 10 s) for
    /// the first line it prints, which it prints once it is ready. A child that is not ready in time is stopped.
    private static func spawnPrintingReadiness(
        _ arguments: [String],
        environment: [String: String],
        log: String,
        awaiting what: String
    ) throws -> SpawnedProcess {
        let errors = try FileSystem.openForWriting(log)
        defer { errors.close() }
        var subprocess = Subprocess(arguments, environment: environment)
        subprocess.output = .pipe
        subprocess.errorOutput = .descriptor(errors)
        let process = try SpawnedProcess(subprocess)
        do {
            _ = try process.readOutputLine(for: what, timeout: .seconds(10))
        } catch {
            process.terminate()
            process.waitUntilExit()
            throw error
        }
        return process
    }

    /// The notifications shown so far, as `summary<TAB>body`.
    package func notificationLines() -> [String] { lines(of: notifications) }

    /// Where the notification server writes the notifications.
    package var notifications: URL { root.appendingPathComponent("notifications.txt") }

    /// The URIs the app was opened with so far.
    package func openedURIs() -> [String] { lines(of: opened) }

    /// The lines the app and the services wrote to ``started`` so far.
    package func startedLines() -> [String] { lines(of: started) }

    private func lines(of file: URL) -> [String] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
