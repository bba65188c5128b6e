import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// Socket activation with the real parts: a `systemd --user` manager, `systemd-socket-activate`,
/// and `systemd-analyze verify` on the shipped units.
@Suite(.ownThread, .serialized, .enabled(if: SystemdUserManager.isAvailable, "needs root, unshare and systemd"))
struct SystemdActivationTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// An app whose links run a program that records its parent's pid and the payload.
    private func writeApp(home: URL) throws -> URL {
        let received = home.appendingPathComponent("received.txt")
        let program = home.appendingPathComponent("record.sh")
        try ProgramFile.write("#!/bin/sh\nprintf '%s %s\\n' \"$PPID\" \"$(cat)\" >> \(received.path)\n", to: program)
        let apps = home.appendingPathComponent(".config/linkd/apps.d")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        try Data(
            #"{"app": "com.example.Notes", "links": [{"match": "myapp://note/{id}", "action": {"exec": ["\#(program.path)"]}}]}"#
                .utf8
        )
        .write(to: apps.appendingPathComponent("notes.json"))
        return received
    }

    private func lines(_ url: URL) -> [String] {
        ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func theUserManagerActivatesTheDaemonOnTheFirstOpenAndAfterEachIdleExitTwelveTimes() throws {
        let manager = try SystemdUserManager(daemonArguments: "--idle-exit 1")
        try #require(FileManager.default.fileExists(atPath: manager.runtime.path + "/systemd/private"))
        let received = try writeApp(home: manager.home)
        // The manager was ready only once sockets.target was reached: the socket listens.
        let socket = manager.runtime.path + "/linkd/socket"
        #expect(manager.daemonPIDs().isEmpty)  // systemd listens; no daemon runs before the first link
        var info = stat()
        #expect(stat(socket, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(manager.runtime.path + "/linkd", &info) == 0 && info.st_mode & 0o777 == 0o700)
        var daemons: Set<Int32> = []
        for round in 1...12 {
            let output = try manager.run(["open", "myapp://note/\(round)"])
            #expect(output.status == 0, "round \(round): \(output)")
            daemons.formUnion(manager.daemonPIDs())
            // systemd's child, not the test's: its exit is an event of its pidfd.
            #expect(ProcessExit.wait(for: manager.daemonPIDs(), until: .now + .seconds(6)))
            #expect(manager.daemonPIDs().isEmpty, "round \(round): the daemon did not exit when idle")
        }
        let records = lines(received)
        #expect(records.count == 12)
        // Twelve daemons, one per activation, each saying so as it starts (a pid seen after the open is only a lower
        // bound: a daemon can be gone by then on a loaded machine).
        #expect(
            manager.output.components(separatedBy: "listening on the socket passed by systemd").count - 1 == 12,
            "\(manager.output)"
        )
        #expect(daemons.count <= 12)
        // The socket still belongs to systemd, and it still answers: the start limit was never hit.
        #expect(FileManager.default.fileExists(atPath: socket))
        #expect(try manager.run(["open", "myapp://note/13"]).status == 0)
        let status = try manager.run(["status"]).stdout
        #expect(status.contains("daemon: activatable by systemd (linkd.socket is active) on \(socket)\n"))
        #expect(status.contains("systemd: linkd.socket active, linkd.service "))
    }

    /// A program that has read its link belongs to the app: the daemon's idle exit under systemd does not end it.
    @Test(.disabled(if: Sanitizer.isActive, Sanitizer.reason))
    func aDeliveredProgramOutlivesTheDaemonUnderSystemd() throws {
        let manager = try SystemdUserManager(daemonArguments: "--idle-exit 1")
        let received = manager.home.appendingPathComponent("received.txt")
        try manager.installApp(running: "#!/bin/sh\ncat > /dev/null\nsleep 3\necho done >> \(received.path)\n")
        #expect(try manager.run(["open", "myapp://note/1"]).status == 0)
        // systemd's children, not the test's: the daemon's exit is an event of its pidfd, the program's end a change
        // of its file.
        let events = FileEvents([manager.home.path])
        #expect(ProcessExit.wait(for: manager.daemonPIDs(), until: .now + .seconds(6)))
        #expect(manager.daemonPIDs().isEmpty, "the daemon exited when idle")
        #expect(lines(received).isEmpty, "the program still sleeps")
        #expect(events.wait(until: .now + .seconds(8)) { !lines(received).isEmpty })
        #expect(lines(received) == ["done"])
    }

    @Test func aResetRunsInTheDaemonSystemdStartedFromTheRecoveryLinkAndThePKCELoop() throws {
        let manager = try SystemdUserManager(daemonArguments: "--idle-exit 5")
        let gotrue = try GoTrueDouble()
        gotrue.addUser(email: "ada@example.com", password: "old-password")
        let apps = manager.home.appendingPathComponent(".config/linkd/apps.d")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        try Data(
            """
            {"app": "com.example.Reset", "links": [{"match": "resetapp://reset", "format": "supabase", "action": "reset"}],
             "backend": {"kind": "supabase", "url": "\(gotrue.baseURL)", "apiKey": "\(GoTrueDouble.apiKey)"}}
            """.utf8
        ).write(to: apps.appendingPathComponent("reset.json"))
        // The manager was ready only once sockets.target was reached: the socket listens.
        #expect(FileManager.default.fileExists(atPath: manager.runtime.path + "/linkd/socket"))

        let session = try #require(gotrue.recoverySession(for: "ada@example.com"))
        let link =
            "resetapp://reset#access_token=\(session.accessToken)&refresh_token=\(session.refreshToken)&type=recovery"
        let first = try manager.run(["open", "--password-stdin", link], stdin: Data("Canary-pass-7f3a9\n".utf8))
        #expect(first.status == 0, "\(first)")
        #expect(gotrue.password(of: "ada@example.com") == "Canary-pass-7f3a9")
        #expect(manager.daemonPIDs().count == 1)  // the reset ran in the daemon systemd started

        // The verifier `linkd reset request` keeps is the one the systemd-started daemon finds.
        let request = try manager.run(
            ["reset", "request", "--app", "com.example.Reset", "--email", "ada@example.com"],
            extra: ["XDG_CONFIG_HOME": manager.home.path + "/.config"]
        )
        #expect(request.status == 0, "\(request)")
        let code = try #require(gotrue.pkceCode(for: "ada@example.com"))
        let second = try manager.run(
            ["open", "--password-stdin", "resetapp://reset?code=\(code)"],
            stdin: Data("Another-pass-4c2\n".utf8)
        )
        #expect(second.status == 0, "\(second)")
        #expect(gotrue.password(of: "ada@example.com") == "Another-pass-4c2")
    }

    @Test func systemdSocketActivatePassesTheSocketForOneActivation() throws {
        let world = try DaemonHarness()
        let received = try writeApp(home: world.root)
        try FileManager.default.createDirectory(
            atPath: world.runtime.path + "/linkd",
            withIntermediateDirectories: true
        )
        chmod(world.runtime.path + "/linkd", 0o700)  // as linkd.socket's DirectoryMode= makes it
        let errorPath = world.root.appendingPathComponent("activate.err").path
        let harness = try SpawnedProcess(
            "/usr/bin/systemd-socket-activate",
            [
                "-l", world.socketPath, "--fdname=links", "-E", "XDG_RUNTIME_DIR=\(world.runtime.path)",
                "-E", "HOME=\(world.root.path)", "-E", "XDG_CONFIG_HOME=\(world.root.path)/.config",
                LinkdProcess.executable.path, "daemon", "--idle-exit", "1",
            ],
            environment: ProcessInfo.processInfo.environment,
            stderrPath: errorPath
        )
        // Only the socket file shows that systemd-socket-activate listens: a connection would start the daemon.
        #expect(world.waitUntil(.seconds(5)) { FileManager.default.fileExists(atPath: world.socketPath) })
        let output = try LinkdProcess.run(["open", "myapp://note/1"], environment: world.environment)
        #expect(output.status == 0, "\(output)")
        if output.status != 0 { harness.terminate() }  // it waits for a connection that never came
        harness.waitUntilExit()
        let log = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        #expect(harness.terminationStatus == 0)
        #expect(log.contains("linkd: listening on the socket passed by systemd"))
        #expect(lines(received).count == 1)
        #expect(world.daemonPIDs().isEmpty)
    }

    @Test func theShippedUnitsVerifyClean() throws {
        let units = try ShippedUnits()
        let manuals = Self.repository.appendingPathComponent("share/man").path
        let (status, output) = try units.analyze(
            ["verify", "--user", units.socket.path, units.service.path],
            environment: ["MANPATH": manuals]
        )
        #expect(status == 0)
        #expect(output == "")
    }
}
