import Foundation
import LinkdTestSupport
import Testing

/// The harness of the systemd tests: its manager's user reaches the linkd it runs wherever the repository was
/// cloned, and a unit that cannot start fails the waiting command fast, naming the unit, instead of holding the run.
@Suite(.ownThread, .enabled(if: SystemdUserManager.isAvailable, "needs root, unshare and systemd"))
struct SystemdUserManagerTests {
    @Test func theUnitRunsACopyOfLinkdInTheManagersOwnFolder() throws {
        let manager = try SystemdUserManager(daemonArguments: "")
        #expect(manager.executable.path.hasPrefix(manager.root.path + "/"))
        let unit = try String(
            contentsOf: manager.home.appendingPathComponent(".config/systemd/user/linkd.service"),
            encoding: .utf8
        )
        #expect(unit.contains("\nExecStart=\(manager.executable.path) daemon "))
        #expect(!unit.contains(LinkdProcess.executable.path))
        let version = try manager.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("linkd "), "\(version)")
    }

    @Test func aDaemonThatCannotStartEndsTheWaitingCommandNamingTheUnit() throws {
        // `linkd daemon --no-such-option` exits 64 at once: systemd restarts it every second, as it restarts a
        // sandbox that cannot be set up.
        let manager = try SystemdUserManager(daemonArguments: "--no-such-option")
        let started = ContinuousClock.now
        let output = try manager.run(["open", "myapp://note/1"])
        #expect(ContinuousClock.now - started < .seconds(60), "\(output)")
        #expect(output.status != 0)
        #expect(output.stderr.contains("linkd.service failed to start"), "\(output)")
        #expect(output.stderr.contains("linkd.service - linkd: route password-reset"), "\(output)")
    }
}
