import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// The apps' interface under a real `systemd --user` manager, as installed: the shipped D-Bus service file lets an
/// app's call start `linkd.service` (with its sandbox), which takes the name, and the app's links reach it.
@Suite(.ownThread, .disabled(if: !SystemdUserManager.isAvailable, "needs root, unshare, setpriv and systemd"))
struct AppInterfaceActivationTests {
    /// A manager whose linkd knows one `forward` app, com.example.Notes, with linkd's D-Bus service file installed;
    /// and the example app's copy.
    private static func notesManager() throws -> (SystemdUserManager, URL) {
        let manager = try SystemdUserManager(daemonArguments: "--idle-exit 30")
        let apps = manager.home.appendingPathComponent(".config/linkd/apps.d")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        let config = #"{"app": "com.example.Notes", "links": [{"match": "notes://note/{id}", "action": "forward"}]}"#
        try Data(config.utf8).write(to: apps.appendingPathComponent("notes.json"))
        return (manager, try manager.installLinkdBusService())
    }

    @Test(.disabled(if: Sanitizer.isActive, Sanitizer.reason))
    func anAppsSubscriptionStartsTheDaemonThroughItsUnitAndGetsItsLinks() throws {
        let (manager, exampleApp) = try Self.notesManager()
        #expect(manager.daemonPIDs().isEmpty, "only the socket listens before the call")
        let output = manager.root.appendingPathComponent("app.out")
        let app = try SpawnedProcess(
            SystemdUserManager.launcher[0],
            Array(SystemdUserManager.launcher.dropFirst()) + [exampleApp.path, "com.example.Notes"],
            environment: manager.environment,
            stdoutPath: output.path,
            stderrPath: output.path
        )
        defer { app.terminate() }
        let events = FileEvents([manager.root.path])
        let lines = {
            ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        #expect(events.wait(until: .now + .seconds(20)) { !lines().isEmpty })
        #expect(lines() == ["subscribed as com.example.Notes"], "\(manager.output)")
        #expect(try manager.systemctl(["is-active", "linkd.service"]).output == "active\n")
        let opened = try manager.run(["open", "notes://note/9"])
        #expect(opened.stdout == "delivered: notes://note/{id} → com.example.Notes\n", "\(opened)\n\(manager.output)")
        #expect(events.wait(until: .now + .seconds(10)) { lines().count == 2 })
        #expect(lines().last == "link notes://note/{id} id=9")
    }

    /// The shipped unit's sandbox (its own user namespace, `ProtectProc=invisible`) still reads a Flatpak app's
    /// sandbox: the app subscribes with no key at all and is proven by its app id; another sandbox's app is refused.
    @Test(.disabled(if: Sanitizer.isActive || !FlatpakStandIn.isAvailable, "needs bubblewrap, no sanitizer"))
    func theSandboxedDaemonTellsAFlatpakAppByItsSandbox() throws {
        let (manager, exampleApp) = try Self.notesManager()
        let empty = manager.root.appendingPathComponent("sandbox-runtime")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        chown(empty.path, SystemdUserManager.uid, SystemdUserManager.uid)
        let events = FileEvents([manager.root.path])
        func start(sandboxOf appID: String, output: URL) throws -> SpawnedProcess {
            let sandbox = try FlatpakStandIn.arguments(
                appID: appID,
                in: manager.root,
                running: [exampleApp.path, "com.example.Notes"]
            )
            var environment = manager.environment
            environment["XDG_RUNTIME_DIR"] = empty.path  // no key in reach
            environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(manager.runtime.path)/bus"
            return try SpawnedProcess(
                SystemdUserManager.launcher[0],
                Array(SystemdUserManager.launcher.dropFirst()) + [FlatpakStandIn.bwrap] + sandbox,
                environment: environment,
                stdoutPath: output.path,
                stderrPath: output.path + ".err"
            )
        }
        let said = { (output: URL) in
            ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        let impostorOutput = manager.root.appendingPathComponent("impostor.out")
        let impostor = try start(sandboxOf: "com.example.Other", output: impostorOutput)
        impostor.waitUntilExit()
        #expect(
            said(impostorOutput) == [
                "linkd refused: io.linkd.Linkd1.Error.NotProven: a Flatpak sandbox of com.example.Other cannot act "
                    + "for com.example.Notes"
            ],
            "\((try? String(contentsOfFile: impostorOutput.path + ".err", encoding: .utf8)) ?? "")\n\(manager.output)"
        )
        let output = manager.root.appendingPathComponent("app.out")
        let app = try start(sandboxOf: "com.example.Notes", output: output)
        defer { app.terminate() }
        #expect(events.wait(until: .now + .seconds(20)) { !said(output).isEmpty })
        #expect(
            said(output) == ["subscribed as com.example.Notes"],
            "\((try? String(contentsOfFile: output.path + ".err", encoding: .utf8)) ?? "")\n\(manager.output)"
        )
        let status = try manager.run(
            ["status"],
            extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(manager.runtime.path)/bus"]
        )
        #expect(status.stdout.hasSuffix("\nsubscribed apps: com.example.Notes (flatpak)\n"), "\(status)")
    }
}
