import Dispatch
import Foundation
import Glibc
import LinkdSystem
import LinkdTestSupport
import Testing

/// The daemon's two-phase stop: the first SIGTERM stops new work and lets running work finish; nothing acknowledged
/// is lost, and nothing is sent on behalf of a link the daemon gave up.
@Suite(.ownThread) struct ShutdownTests {
    /// A program that waits a second before it reads its payload: SIGTERM comes while it has not read it yet.
    @Test func aProgramStillToReadItsLinkGetsItAfterSIGTERM() throws {
        let world = try DaemonHarness()
        let started = world.root.appendingPathComponent("started").path
        let late = try world.script("late.sh", "touch \(started)\nsleep 1\ncat >> \(world.received.path)\n")
        try world.writeApps(program: late.path, slow: late.path)
        _ = try world.run(["open", "myapp://unclaimed"])  // starts the daemon
        let daemons = world.daemonPIDs()
        try #require(daemons.count == 1)
        let files = SpawnFiles.make()
        defer { try? FileManager.default.removeItem(at: files) }
        let opening = try world.start(["open", "myapp://note/1"], stdoutPath: files.appendingPathComponent("out").path)
        // The program runs, not yet reading.
        #expect(world.waitUntil(.seconds(5)) { FileManager.default.fileExists(atPath: started) })
        kill(daemons[0], SIGTERM)
        opening.waitUntilExit()
        #expect(opening.terminationStatus == 0)
        let output = try String(contentsOf: files.appendingPathComponent("out"), encoding: .utf8)
        #expect(output == "delivered: myapp://note/{id} → com.example.Notes\n")
        // Delivered: the program has read it, and writes it to its file when it gets the end of its input.
        #expect(world.waitUntil(.seconds(5)) { world.receivedPayloads().count == 1 }, "\(world.daemonLog())")
        #expect(world.receivedPayloads().map { $0["url"] as? String } == ["myapp://note/1"])
        #expect(world.waitForDaemonsToExit(.seconds(5)), "\(world.daemonLog())")
        #expect(world.spooledURLs().isEmpty)
    }

    /// SIGTERM while a reset waits for its password: the client is told the daemon stopped, no password is sent,
    /// and the link works with the next daemon.
    @Test func aResetWaitingForItsPasswordIsToldAndItsLinkStaysUsable() throws {
        let reset = try ResetWorld()
        let world = reset.world
        let daemon = try world.startDaemon(stderrPath: world.root.path + "/daemon.log")
        #expect((try? world.connect()).map { close($0) } != nil)

        let link = try reset.recoveryLink()
        let client = try world.connect()
        defer { close(client) }
        client.send(#"{"op": "open", "url": "\#(link.url)", "interactive": true}"# + "\n")
        #expect(client.readLine()?.hasPrefix(#"{"ask": "password""#) == true)
        kill(daemon.pid, SIGTERM)
        #expect(
            client.readLine()
                == #"{"ok": false, "error": {"kind": "temporary", "reason": "daemon_stopping", "#
                + #""message": "linkd is stopping and did nothing with the link; open it again"}}"#
        )
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        let log = (try? String(contentsOfFile: world.root.path + "/daemon.log", encoding: .utf8)) ?? ""
        #expect(!log.contains("notification"), "the client was told: no notification is tried")
        #expect(reset.gotrue.requests.map(\.method) == ["GET"])
        #expect(world.spooledURLs().isEmpty)
        let again = try world.run(["open", "--password-stdin", link.url], stdin: Data("Canary-pass-7f3a9\n".utf8))
        #expect(again.status == 0, "\(again)")
        #expect(reset.gotrue.password(of: "ada@example.com") == "Canary-pass-7f3a9")
    }

    /// SIGTERM in the middle of 200 clients streaming links: every link a client was told is delivered reached the
    /// program or waits in the spool, and none reached it twice.
    @Test func everyAcknowledgedLinkSurvivesASIGTERMUnderLoad() throws {
        let world = try DaemonHarness()
        _ = try world.run(["open", "myapp://unclaimed"])
        let daemons = world.daemonPIDs()
        try #require(daemons.count == 1)
        let clients = 200
        let acknowledged = Lock<[String]>([])
        let stopper = DispatchQueue(label: "stopper")
        stopper.async {
            _ = world.waitUntil(.seconds(30)) { world.receivedPayloads().count >= 100 }
            kill(daemons[0], SIGTERM)
        }
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            let links = (0..<10).map { "myapp://note/c\(client)-\($0)" }.joined(separator: "\n") + "\n"
            guard let output = try? world.run(["open", "--json", "-"], stdin: Data(links.utf8)) else { return }
            let urls = output.stdout.split(separator: "\n").compactMap { line -> String? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["ok"] as? Bool == true
                else { return nil }
                return object["input"] as? String
            }
            acknowledged.withLock { $0 += urls }
        }
        stopper.sync {}
        // Clients whose connection ended started the next daemon; it is stopped the same way.
        for pid in world.daemonPIDs() { kill(pid, SIGTERM) }
        #expect(world.waitForDaemonsToExit(.seconds(15)))
        let acknowledgedLinks = acknowledged.withLock { $0 }
        #expect(acknowledgedLinks.count > 100)
        // A delivered link is the program's: the last programs may still be writing what they read (read again at
        // each change of their file or the spool, until they have it all or 10 s pass).
        var received: [String] = []
        var kept: Set<String> = []
        _ = world.waitUntil(.seconds(10)) {
            received = world.receivedPayloads().compactMap { $0["url"] as? String }
            kept = Set(received).union(world.spooledURLs())
            return acknowledgedLinks.allSatisfy(kept.contains)
        }
        #expect(acknowledgedLinks.filter { !kept.contains($0) } == [])
        #expect(received.count == Set(received).count, "a link reached the program twice")
    }
}
