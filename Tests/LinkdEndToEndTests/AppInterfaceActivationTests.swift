import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// The apps' interface under a real `systemd --user` manager, as installed: the shipped D-Bus service file lets an
/// app's call start `linkd.service` (with its sandbox), which takes the name, and the app's links reach it.
@Suite(.ownThread, .disabled(if: !SystemdUserManager.isAvailable, "needs root, unshare, setpriv and systemd"))
struct AppInterfaceActivationTests {
    @Test(.disabled(if: Sanitizer.isActive, Sanitizer.reason))
    func anAppsSubscriptionStartsTheDaemonThroughItsUnitAndGetsItsLinks() throws {
        let manager = try SystemdUserManager(daemonArguments: "--idle-exit 30")
        let apps = manager.home.appendingPathComponent(".config/linkd/apps.d")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        let config = #"{"app": "com.example.Notes", "links": [{"match": "notes://note/{id}", "action": "forward"}]}"#
        try Data(config.utf8).write(to: apps.appendingPathComponent("notes.json"))
        let exampleApp = try manager.installLinkdBusService()
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
        let events = try #require(FileEvents([manager.root.path]))
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
}
