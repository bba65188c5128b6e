import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// The daemon's caps: 256 clients at once, 64 programs running at once, 1,000 `forward` links waiting per app. Past
/// each, a clear temporary refusal (75) before anything is recorded, and nothing already accepted is lost.
@Suite(.ownThread, .serialized) struct DaemonCapsTests {
    /// Whether the daemon closed `fd`: a read finds the end of the stream (not a timeout).
    private func isClosed(_ fd: Int32) -> Bool {
        fd.readLine(timeout: .seconds(3)) == nil && recv(fd, nil, 0, Int32(MSG_DONTWAIT)) == 0
    }

    /// 256 real connections (subscribers, which stay connected), then the 257th.
    @Test func the257thClientGetsOneErrorLineAndIsClosedWhileTheOthersAreServed() throws {
        let world = try DaemonHarness()
        let log = world.root.appendingPathComponent("daemon.log").path
        let daemon = try world.startDaemon(["--idle-exit", "30"], stderrPath: log, timeout: .seconds(5))
        defer { daemon.terminate() }
        // The daemon logs each time a place frees up after all were taken.
        let placesFreed = {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").components(separatedBy: "has a place again")
                .count - 1
        }
        var subscribers = try (0..<256).map { _ in try world.subscribe() }
        defer { for fd in subscribers { close(fd) } }
        let extra = try world.connect()
        defer { close(extra) }
        #expect(
            extra.readLine() == #"{"ok": false, "error": {"kind": "temporary", "reason": "too_many_clients", "#
                + #""message": "linkd serves 256 clients at once and did nothing with the link; open it again in a "#
                + #"moment"}}"#
        )
        #expect(isClosed(extra))
        let refused = try world.run(["open", "myapp://note/1"])
        #expect(refused.status == 75, "\(refused)")
        #expect(refused.stderr.contains("[too_many_clients]"), "\(refused)")
        // One subscriber leaves: its place is free for the next client, and the others are still served.
        close(subscribers.removeFirst())
        #expect(world.waitUntil(.seconds(5)) { placesFreed() == 1 })
        #expect(try world.run(["open", "myapp://inbox/1"]).status == 0)
        let line = try #require(subscribers[0].readLine())
        #expect(line.contains(#""url": "myapp://inbox/1""#))
        // The `linkd open` that got through has exited; its place is free once the daemon has seen its connection end.
        #expect(world.waitUntil(.seconds(5)) { placesFreed() == 2 })
        subscribers.append(try world.subscribe())
        #expect(try world.run(["open", "myapp://note/2"]).status == 75, "full again: a new subscriber took the place")
        #expect(world.receivedPayloads().isEmpty, "no program ran for a refused link")
        #expect(world.spooledURLs().isEmpty)
        #expect(world.daemonPIDs() == [daemon.pid])
    }

    /// Programs that read their link and go on running hold their places until they exit.
    @Test func theSixtyFifthProgramWaitsForOneToExitAndIsRefusedWhenNoneDoes() throws {
        let world = try DaemonHarness()
        let pids = world.root.appendingPathComponent("pids")
        let running = {
            ((try? String(contentsOf: pids, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
        }
        // The pid is written before the link is read: a link the daemon calls delivered (read whole) has its pid.
        let stay = try world.script("stay.sh", "echo $$ >> \(pids.path)\ncat > /dev/null\nexec sleep 120\n")
        try world.writeApps(program: stay.path, slow: stay.path)
        defer { for pid in running() { kill(pid, SIGKILL) } }
        let daemon = try world.startDaemon(["--idle-exit", "30"], timeout: .seconds(5))
        defer { daemon.terminate() }
        let links = (1...64).map { "myapp://note/\($0)" }.joined(separator: "\n") + "\n"
        let started = try world.run(["open", "-"], stdin: Data(links.utf8))
        #expect(started.status == 0, "\(started)")
        #expect(running().count == 64)
        let refused = try world.run(["open", "myapp://note/65"])
        #expect(refused.status == 75, "\(refused)")
        #expect(refused.stderr.contains("64 programs of links are running already"), "\(refused)")
        #expect(refused.stderr.contains("[too_many_programs]"), "\(refused)")
        #expect(world.spooledURLs().isEmpty, "refused before it was recorded")
        #expect(running().count == 64)
        // A link that comes while all run waits for one to exit, and then runs.
        let waiting = try world.start(["open", "myapp://note/66"])
        defer { waiting.terminate() }
        kill(running()[0], SIGTERM)
        waiting.waitUntilExit()
        #expect(waiting.terminationStatus == 0)
        // Its program has recorded its pid (read again at each change of the file).
        #expect(world.waitUntil(.seconds(5)) { running().count == 65 })
    }

    /// The RSS of 1,000 waiting links is measured here (`LINKD_MEASURE=1` prints it).
    @Test(.disabled(if: Sanitizer.isActive, Sanitizer.reason))
    func theThousandAndFirstQueuedLinkIsRefusedAndTheThousandAreDelivered() throws {
        let world = try DaemonHarness()
        let daemon = try world.startDaemon(["--idle-exit", "60"], timeout: .seconds(5))
        defer { daemon.terminate() }
        let before = residentKiB(of: daemon.pid)
        let links = (1...1_000).map { "myapp://inbox/\($0)" }.joined(separator: "\n") + "\n"
        let queued = try world.run(["open", "-"], stdin: Data(links.utf8))
        #expect(queued.status == 0, "\(queued.stderr)")
        #expect(queued.stdout.split(separator: "\n").filter { $0.hasPrefix("queued: ") }.count == 1_000)
        let after = residentKiB(of: daemon.pid)
        if ProcessInfo.processInfo.environment["LINKD_MEASURE"] != nil {
            print("daemon RSS: \(before) KiB idle, \(after) KiB with 1,000 queued forward links")
        }
        #expect(after < 40 * 1_024, "\(after) KiB")
        let refused = try world.run(["open", "myapp://inbox/1001"])
        #expect(refused.status == 75, "\(refused)")
        #expect(refused.stderr.contains("[forward_queue_full]"), "\(refused)")
        let spooled = world.spooledURLs()
        #expect(spooled.count == 1_000 && !spooled.contains("myapp://inbox/1001"), "not recorded")
        let subscriber = try world.subscribe()
        defer { close(subscriber) }
        let delivered = (1...1_000).map { _ in subscriber.readLine() ?? "" }
        #expect(delivered.last?.contains(#""url": "myapp://inbox/1000""#) == true)
        #expect(world.waitUntil(.seconds(5)) { world.spooledURLs().isEmpty })
        #expect(try world.run(["open", "myapp://inbox/1002"]).status == 0, "room again")
    }

    /// `VmRSS` of `pid`, in KiB; 0 when it cannot be read.
    private func residentKiB(of pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
