import Foundation
import Glibc
import LinkdSystem
import LinkdTestSupport
import Testing

/// A click always ends: when the socket's listener never reads the link (systemd holding linkd.socket for a service
/// that cannot start, or any process that listens there and never reads), `linkd open` gives up after 15 s, says
/// why (in a notification when it has no terminal) and exits 75; nothing was taken, so nothing is lost.
@Suite(.ownThread) struct UnreadLinkTests {
    static let link = "myapp://note/1"

    /// A daemon world whose socket's folder is made (0700, as linkd.socket makes it), with nothing listening yet.
    static func world() throws -> DaemonHarness {
        let world = try DaemonHarness()
        try FileManager.default.createDirectory(
            atPath: world.runtime.path + "/linkd",
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        return world
    }

    @Test func aListenerThatNeverReadsEndsTheClickAfterFifteenSecondsWithANotification() throws {
        let world = try Self.world()
        let listener = try SilentListener(at: world.socketPath)
        defer { withExtendedLifetime(listener) {} }  // it listens until the test ends
        let bus = try PrivateSessionBus(activatable: false)
        let server = try bus.startNotificationServer()
        defer {
            kill(server.pid, SIGKILL)
            server.waitUntilExit()
        }
        let started = ContinuousClock.now
        let output = try world.run(
            ["open", "-"],
            stdin: Data((Self.link + "\nmyapp://note/2\n").utf8),
            extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        )
        let elapsed = ContinuousClock.now - started
        let cause =
            "the process (pid \(getpid())) listening on '\(listener.path)' did not read the link within 15 s; "
            + "nothing was opened: open the link again"
        #expect(output == .init(stdout: "", stderr: "Error: link 1: \(cause)\nError: link 2: \(cause)\n", status: 75))
        #expect(elapsed >= .seconds(15))
        if TimeBounds.hold { #expect(elapsed < .seconds(25)) }
        let shown = cause.replacingOccurrences(of: "'", with: "&#39;")
        #expect(bus.notificationLines() == ["linkd\tThe link was not opened: \(shown)."])
    }

    /// Once a daemon has answered on the connection, it serves it: a later link it leaves unread a while (busy with
    /// another link's reset) is waited for with the daemon's own times, not given up on after 15 s.
    @Test func aDaemonThatAnsweredIsWaitedForThoughItReadsTheNextLinkLate() throws {
        let world = try Self.world()
        // A daemon that answers the first link at once, and reads the next one 18 s after it.
        let answer = #"{"ok": true, "route": "myapp://note/{id}", "app": "com.example.Notes", "state": "delivered"}"#
        let daemon = try world.script(
            "slow-daemon.py",
            """
            import socket, sys, time
            server = socket.socket(socket.AF_UNIX)
            server.bind(sys.argv[1])
            server.listen(4)
            print("listening", flush=True)
            connection, _ = server.accept()
            reader = connection.makefile("rb")
            reader.readline()
            connection.sendall(b'\(answer)\\n')
            time.sleep(18)
            reader.readline()
            connection.sendall(b'\(answer)\\n')
            time.sleep(5)

            """
        )
        var fake = Subprocess(["/usr/bin/python3", daemon.path, world.socketPath], environment: world.environment)
        fake.output = .pipe
        fake.diesWithParent = true
        let listening = try SpawnedProcess(fake)
        defer {
            listening.terminate()
            listening.waitUntilExit()
        }
        #expect(try listening.readOutputLine(for: "the slow daemon", timeout: .seconds(10)) == "listening")
        // The second link comes on standard input after the first one's answer, so it is sent after it.
        let opening = try SpawnedProcess(
            "/bin/sh",
            ["-c", "(echo myapp://note/1; sleep 0.5; echo myapp://note/2) | \(LinkdProcess.executable.path) open -"],
            environment: world.environment,
            stdoutPath: world.root.path + "/open.out",
            stderrPath: world.root.path + "/open.err"
        )
        opening.waitUntilExit()
        let stderr = (try? String(contentsOfFile: world.root.path + "/open.err", encoding: .utf8)) ?? ""
        #expect(opening.terminationStatus == 0, "\(stderr)")
        let stdout = (try? String(contentsOfFile: world.root.path + "/open.out", encoding: .utf8)) ?? ""
        #expect(stdout == String(repeating: "delivered: myapp://note/{id} → com.example.Notes\n", count: 2))
    }

    @Test(.enabled(if: SystemdUserManager.isAvailable, "needs root, unshare and systemd"))
    func aServiceThatCannotStartEndsTheClickNamingTheCommandThatSaysWhy() throws {
        // `daemon --no-such-option` exits at once: systemd restarts it every second and never reads the link, as
        // with a sandbox that cannot be set up (226/NAMESPACE).
        let manager = try SystemdUserManager(daemonArguments: "--no-such-option")
        let output = try manager.run(["open", Self.link], failsFast: false)
        #expect(
            output
                == .init(
                    stdout: "",
                    stderr: "Error: link 1: linkd's daemon did not start within 15 s; 'systemctl --user status "
                        + "linkd.service' shows why; nothing was opened: open the link again\n",
                    status: 75
                )
        )
        // Once the daemon can start, the same click opens the link: nothing was left half done.
        let unit = manager.home.appendingPathComponent(".config/systemd/user/linkd.service")
        let fixed = try String(contentsOf: unit, encoding: .utf8).replacingOccurrences(
            of: " --no-such-option",
            with: ""
        )
        try Data(fixed.utf8).write(to: unit)
        #expect(try manager.systemctl(["daemon-reload"]).status == 0)
        #expect(try manager.systemctl(["reset-failed", "linkd.service"]).status == 0)
        let again = try manager.run(["open", "myapp://nosuch/1"])
        #expect(again.status == 1, "\(again)")  // the daemon answered: no app claims it
    }
}
