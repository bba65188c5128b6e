import Foundation
import Glibc
import LinkdSystem
import LinkdTestSupport
import LinkdWire
import Testing

/// `linkd daemon` and `linkd open` as processes, without systemd.
@Suite(.ownThread, .serialized) struct DaemonTests {
    static let canary = "c4nary9d1e7b"

    @Test func deliversTheLinkToTheExecProgramWithNoSecretInItsArgvOrEnvironment() throws {
        let world = try DaemonHarness()
        let link = "myapp://note/7?x=1#access_token=\(Self.canary).b.c&refresh_token=\(Self.canary)r"
        let output = try world.run(["open", link])
        #expect(
            output == .init(stdout: "delivered: myapp://note/{id} → com.example.Notes\n", stderr: "", status: 0),
            "\(world.daemonLog())"
        )
        #expect(world.waitUntil(.seconds(5)) { world.receivedPayloads().count == 1 })
        let payload = try #require(world.receivedPayloads().first)
        #expect(payload["app"] as? String == "com.example.Notes")
        #expect(payload["route"] as? String == "myapp://note/{id}")
        #expect(payload["url"] as? String == link)
        let fields = try #require(payload["fields"] as? [String: String])
        #expect(
            fields == ["id": "7", "x": "1", "access_token": "\(Self.canary).b.c", "refresh_token": "\(Self.canary)r"]
        )
        #expect((payload["id"] as? String)?.count == 32)
        let seenByProgram = try String(contentsOf: world.processInfoLog, encoding: .utf8)
        #expect(seenByProgram.contains("--open-link"))
        #expect(!seenByProgram.contains(Self.canary))
        // The daemon says it delivered the link once the program read it all, after the link left the spool.
        #expect(world.waitForEvent(.answered, fields: ["LINKD_STATE": "delivered"], within: .seconds(5)))
        #expect(world.spooledURLs().isEmpty)
    }

    @Test func reportsRefusalsWithTheExitCodesOfTheDesign() throws {
        let world = try DaemonHarness()
        let invalid = try world.run(["open", "--json", "https://app.example.com@evil.example/"])
        #expect(invalid.status == 65)
        #expect(invalid.stdout.contains(#""reason": "userinfo", "part": "userinfo""#))
        let unmatched = try world.run(["open", "myapp://settings"])
        #expect(unmatched.status == 1)
        #expect(
            unmatched.stderr
                == "Error: link 1: no app claims this 'myapp://settings' link; 'linkd route' with the link says why "
                + "[no_app]\n"
        )
        // Named by scheme and host: nothing of a path or query, which the click's notification would show and keep.
        let secretive = try world.run(["open", "myapp://other/c4nary-path?next=c4nary-query"])
        #expect(secretive.status == 1)
        #expect(!secretive.stderr.contains("c4nary") && secretive.stderr.contains("'myapp://other'"), "\(secretive)")
        // A sign-in session mailed to a reset link (possibly an attacker's own) is not a reset.
        let signIn = try world.run([
            "open", "myapp://reset#access_token=a.b.c&refresh_token=\(Self.canary)&type=magiclink",
        ])
        #expect(signIn.status == 65)
        #expect(
            signIn.stderr
                == "Error: link 1: a 'supabase.session' (type magiclink) link is not a password reset; linkd refuses "
                + "it at a reset link [not_a_reset]\n"
        )
        // The backend's error redirect in place of a reset: the emailed link has expired.
        let expired = try world.run([
            "open", "myapp://reset#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid",
        ])
        #expect(expired.status == 65)
        #expect(
            expired.stderr
                == "Error: link 1: this link has expired or was already used; request a new email (otp_expired) "
                + "[link_expired]\n"
        )
        let piped = try world.run(["open", "-"], stdin: Data("myapp://note/1\nmyapp://note/2\n".utf8))
        #expect(
            piped.stdout == "delivered: myapp://note/{id} → com.example.Notes\n"
                + "delivered: myapp://note/{id} → com.example.Notes\n"
        )
        #expect(piped.status == 0)
    }

    @Test func tenConcurrentOpensLeaveExactlyOneDaemon() throws {
        let world = try DaemonHarness()
        let processes = try (0..<10).map { try world.start(["open", "myapp://note/\($0)"]) }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        // A daemon that lost the race may still be starting up on a loaded machine; it exits when it finds the lock
        // taken, leaving the one that won.
        #expect(world.waitUntil(.seconds(5)) { world.daemonPIDs().count == 1 }, "daemons: \(world.daemonPIDs())")
        #expect(world.waitUntil(.seconds(5)) { world.receivedPayloads().count == 10 })
    }

    @Test func aSecondDaemonSaysWhyItExits() throws {
        let world = try DaemonHarness()
        let first = try world.startDaemon(["--idle-exit", "30"])
        defer { first.terminate() }
        let second = try world.run(["daemon"])
        #expect(second.status == 75)
        #expect(
            second.stderr.hasSuffix("linkd: another linkd daemon is already running for this user; this one exits\n")
        )
        #expect(world.daemonPIDs() == [first.pid])
    }

    /// The daemon's own check, whatever the folders let through: a raw client of another uid gets one refusal line.
    @Test(.enabled(if: getuid() == 0, "needs root to act as another uid"))
    func aClientOfAnotherUIDIsRefused() throws {
        let world = try DaemonHarness()
        #expect(try world.run(["open", "myapp://note/1"]).status == 0)
        // Open the folder and socket to everyone, so that only the daemon's own check stands in the way.
        chmod(world.root.path, 0o755)
        chmod(world.runtime.path, 0o755)
        chmod(world.runtime.path + "/linkd", 0o755)
        chmod(world.socketPath, 0o777)
        let client = try world.script(
            "client.py",
            """
            import socket
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.connect("\(world.socketPath)")
            # The refusal comes before the daemon reads a byte: read it first. Sent before it, the request could
            # meet a closed connection (EPIPE), or be unread when the daemon closes and reset the connection.
            print(connection.makefile().readline(), end="", flush=True)
            try:
                connection.sendall(b'{"op": "open", "url": "myapp://note/2"}\\n')
            except OSError:
                pass

            """
        )
        let outputPath = world.root.appendingPathComponent("client.out").path
        let process = try SpawnedProcess(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", client.path],
            environment: ["PATH": "/usr/bin:/bin"],
            stdoutPath: outputPath
        )
        process.waitUntilExit()
        let answer = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        #expect(
            answer
                == #"{"ok": false, "error": {"kind": "permission", "reason": "wrong_user", "message": "this linkd daemon serves uid 0 only"}}"#
                + "\n"
        )
        #expect(world.receivedPayloads().count == 1)
        let log = try String(contentsOfFile: world.logPath, encoding: .utf8)
        #expect(log.contains("refused a connection from uid 65534"))
    }

    @Test func aDeliveredProgramOutlivesAKilledDaemonAndIsNotReplayed() throws {
        let world = try DaemonHarness(delay: 1.5)
        #expect(try world.run(["open", "myapp://note/42"]).status == 0)
        let daemons = world.daemonPIDs()
        try #require(daemons.count == 1)
        #expect(world.spooledURLs().isEmpty, "delivered: the link left the spool")
        kill(daemons[0], SIGKILL)  // the program is sleeping before it records
        // Not the test's child, so no waitpid: /proc shows when it is gone.
        #expect(world.waitForDaemonsToExit(.seconds(5)))
        #expect(world.waitUntil(.seconds(8)) { world.receivedPayloads().count == 1 })
        // The spool is empty, and a daemon is ready only once it has read its spool: it has nothing to run again.
        #expect(world.spooledURLs().isEmpty)
        let restarted = try world.startDaemon(["--idle-exit", "5"])
        defer { restarted.terminate() }
        #expect(world.receivedPayloads().count == 1)
    }

    /// A program that had not read its link when the daemon was killed is ended by the next daemon, which runs the
    /// link again, once, with the same id.
    @Test func aKilledDaemonsUndeliveredLinkIsReplayedOnceAndItsProgramEnded() throws {
        let world = try DaemonHarness()
        let marker = world.root.appendingPathComponent("started")
        let late = try world.script("late.sh", "echo $$ >> \(marker.path)\nsleep 2\ncat >> \(world.received.path)\n")
        try world.writeApps(program: late.path, slow: late.path)
        let daemon = try world.startDaemon(["--idle-exit", "10"])
        let opening = try world.start(["open", "myapp://note/7"])
        #expect(world.waitUntil(.seconds(5)) { FileManager.default.fileExists(atPath: marker.path) })
        let spooled = world.spooledURLs()
        kill(opening.pid, SIGKILL)  // the clicking process is gone too: nobody sends the link again
        opening.waitUntilExit()
        kill(daemon.pid, SIGKILL)
        daemon.waitUntilExit()
        #expect(spooled == ["myapp://note/7"])
        let first = try #require(Int32(String(contentsOf: marker, encoding: .utf8).split(separator: "\n")[0]))
        let restarted = try world.startDaemon(["--idle-exit", "10"], stderrPath: try world.logFile())
        defer { restarted.terminate() }
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 1 })
        // The first program was ended: once it is gone, it can record nothing more.
        #expect(ProcessExit.wait(for: [first], until: .now + .seconds(5)), "the first program was ended")
        #expect(world.receivedPayloads().map { $0["url"] as? String } == ["myapp://note/7"])
        // The running daemon removes the entry once it sees the program has read all of it, which may come just
        // after the program has written what it read; it says so.
        #expect(world.waitForEvent(.replayed, within: .seconds(5)))
        #expect(world.waitForEvent(.answered, fields: ["LINKD_STATE": "delivered"], within: .seconds(5)))
        #expect(world.spooledURLs().isEmpty)
    }

    @Test func aLinkOpenedAgainWhileInFlightJoinsTheFirstRun() throws {
        // The first run stays in flight 3 s: time for the second `linkd open` to start and connect, also on a machine
        // that runs two test suites at once.
        let world = try DaemonHarness(delay: 3)
        let first = try world.start(["open", "myapp://note/9#code=\(Self.canary)"])
        // The first run's program has started (it records its argv before it sleeps): the link is in flight.
        #expect(world.waitUntil(.seconds(5)) { FileManager.default.fileExists(atPath: world.processInfoLog.path) })
        let second = try world.run(["open", "myapp://note/9#code=\(Self.canary)"])
        first.waitUntilExit()
        #expect(first.terminationStatus == 0 && second.status == 0)
        #expect(world.waitUntil(.seconds(5)) { world.receivedPayloads().count == 1 })
        // A second run would have been accepted, and logged so, before the second client had its answer.
        let log = try String(contentsOfFile: world.logPath, encoding: .utf8)
        #expect(
            log.split(separator: "\n").filter { $0.contains("accepted for com.example.Notes") }.count == 1,
            "\(log)"
        )
    }

    @Test func twoHundredClientsTimesTenLinksAreAllActedOn() throws {
        let world = try DaemonHarness()
        #expect(try world.run(["open", "myapp://note/warmup"]).status == 0)
        let clients = 200
        let statuses = Lock([Int32](repeating: -1, count: clients))
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            let links = (0..<10).map { "myapp://note/c\(client)-\($0)" }.joined(separator: "\n") + "\n"
            let status = (try? world.run(["open", "-"], stdin: Data(links.utf8)).status) ?? -1
            statuses.withLock { $0[client] = status }
        }
        #expect(statuses.withLock { $0.allSatisfy { $0 == 0 } })
        #expect(world.waitUntil(.seconds(60)) { world.receivedPayloads().count == 2_001 })
        let ids = Set(world.receivedPayloads().compactMap { ($0["fields"] as? [String: String])?["id"] })
        #expect(ids.count == 2_001)
    }

    @Test func silentClientsDoNotDelayAGoodLinkAndAreDroppedAfterFiveSeconds() throws {
        let world = try DaemonHarness()
        #expect(try world.run(["open", "myapp://note/warmup"]).status == 0)
        let silent = try (0..<100).map { _ in try world.connect() }
        defer { for fd in silent { close(fd) } }
        let start = Date()
        #expect(try world.run(["open", "myapp://note/fast"]).status == 0)
        #expect(Date().timeIntervalSince(start) < 2)
        // After the first-byte limit the daemon closes them: a read sees EOF.
        #expect(silent[0].readLine(timeout: .seconds(8)) == nil)
        #expect(silent.allSatisfy { $0.waitForPeerClose(timeout: .seconds(3)) })
    }

    @Test func badInputGetsAnErrorOrAClosedConnectionAndNeverCostsALink() throws {
        let world = try DaemonHarness()
        #expect(try world.run(["open", "myapp://note/1"]).status == 0)
        let connection = try world.connect()
        connection.send("not json\n")
        #expect(
            connection.readLine()
                == #"{"ok": false, "error": {"kind": "request", "reason": "bad_request", "message": "a request is one JSON object per line"}}"#
        )
        connection.send(#"{"op": "frobnicate"}"# + "\n")
        #expect(
            connection.readLine()
                == #"{"ok": false, "error": {"kind": "request", "reason": "unknown_op", "message": "unknown op 'frobnicate'"}}"#
        )
        connection.send("\u{0}\u{1}\u{FF}garbage\u{7F}\n")
        #expect(connection.readLine()?.contains(#""reason": "bad_request""#) == true)
        connection.send(#"{"op": "open", "url": "myapp://note/2"}"# + "\n")
        #expect(
            connection.readLine()
                == #"{"ok": true, "route": "myapp://note/{id}", "app": "com.example.Notes", "state": "delivered"}"#
        )
        connection.send(String(repeating: "x", count: 70_000) + "\n")
        #expect(connection.readLine()?.contains(#""reason": "too_long""#) == true)
        #expect(connection.readLine(timeout: .seconds(3)) == nil)
        close(connection)
        let halfway = try world.connect()
        halfway.send(#"{"op": "open", "url": "myapp://no"#)
        close(halfway)
        #expect(try world.run(["open", "myapp://note/3"]).status == 0)
        #expect(world.waitUntil(.seconds(5)) { world.receivedPayloads().count == 3 })
        #expect(world.daemonPIDs().count == 1)
    }

    @Test func noCanaryReachesTheLogTheSpoolNamesOrTheProgramsArgvAndEnvironment() throws {
        let world = try DaemonHarness(delay: 0.5)
        let links = [
            "myapp://note/1#access_token=\(Self.canary).x.y&refresh_token=\(Self.canary)",
            "myapp://note/2?code=\(Self.canary)",
            "myapp://reset#access_token=\(Self.canary).a.b&refresh_token=r&type=recovery",
            "myapp://settings?token=\(Self.canary)", "https://u@x.example/?token=\(Self.canary)",
        ]
        _ = try world.run(["open", "--json"] + links)
        let spoolNames = try FileManager.default.contentsOfDirectory(atPath: world.spoolPath)
        #expect(!spoolNames.joined().contains(Self.canary))
        #expect(world.waitUntil(.seconds(5)) { world.receivedPayloads().count == 2 })
        #expect(world.waitForEvent(.answered, count: 2, fields: ["LINKD_STATE": "delivered"], within: .seconds(5)))
        #expect(world.spooledURLs().isEmpty)
        let log = try String(contentsOfFile: world.logPath, encoding: .utf8)
        #expect(!log.contains(Self.canary))
        #expect(log.contains("accepted for com.example.Notes"))
        let seen = try String(contentsOf: world.processInfoLog, encoding: .utf8)
        #expect(!seen.contains(Self.canary))
    }

    @Test func exitsWhenIdleAndRemovesItsSocket() throws {
        let world = try DaemonHarness()
        let daemon = try world.startDaemon(["--idle-exit", "1"], timeout: .seconds(3))
        #expect(FileManager.default.fileExists(atPath: world.socketPath))
        let start = Date()
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        #expect(Date().timeIntervalSince(start) < 3)
        #expect(!FileManager.default.fileExists(atPath: world.socketPath))
    }

    @Test func replacesAStaleSocketFile() throws {
        let world = try DaemonHarness()
        try FileManager.default.createDirectory(
            atPath: world.runtime.path + "/linkd",
            withIntermediateDirectories: true
        )
        chmod(world.runtime.path + "/linkd", 0o700)  // a daemon's folder, as one that crashed left it
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in world.socketPath.utf8.enumerated() { buffer[index] = byte }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(fd)  // the file stays; nobody listens
        #expect(try world.run(["open", "myapp://note/1"]).status == 0)
        #expect(world.waitUntil(.seconds(5)) { world.receivedPayloads().count == 1 })
    }

    /// What a program writes, both streams, reaches the daemon's log line by line, with its link's secrets and
    /// anything shaped like a token redacted.
    @Test func whatAProgramWritesReachesTheLogRedacted() throws {
        let world = try DaemonHarness()
        let echo = try world.script("echo.sh", "cat\necho finished >&2\n")
        try world.writeApps(program: echo.path, slow: echo.path)
        let link = "myapp://note/1?code=\(Self.canary)c#access_token=\(Self.canary).a.b&refresh_token=\(Self.canary)r"
        #expect(try world.run(["open", link]).status == 0)
        #expect(
            world.waitUntil(.seconds(5)) { world.daemonLog().contains("echo.sh: finished") },
            "\(world.daemonLog())"
        )
        let log = world.daemonLog()
        #expect(log.contains("echo.sh: {\"id\": "), "\(log)")
        #expect(!log.contains(Self.canary), "\(log)")
    }

    /// SIGTERM does not wait for a program that has its link, nor end it: it finishes after the daemon is gone.
    /// The program sleeps 3 s after reading, more than the daemon takes to go even under a sanitizer.
    @Test func aRunningProgramOutlivesSIGTERM() throws {
        let world = try DaemonHarness(delay: 3)
        #expect(try world.run(["open", "myapp://note/1"]).status == 0)
        let daemons = world.daemonPIDs()
        try #require(daemons.count == 1)
        kill(daemons[0], SIGTERM)
        #expect(world.waitForDaemonsToExit(.seconds(5)))
        #expect(world.receivedPayloads().isEmpty, "still sleeping when the daemon is gone")
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 1 })
        #expect(world.spooledURLs().isEmpty)
    }
}
