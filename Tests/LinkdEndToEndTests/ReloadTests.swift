import Foundation
import Glibc
import LinkdSystem
import LinkdTestSupport
import LinkdWire
import Testing

/// A running daemon follows its configuration: an edit of apps.d applies to the next link (inotify), SIGHUP reads
/// it again, and a broken edit keeps the good apps.
@Suite(.ownThread) struct ReloadTests {
    private static let inbox =
        #"{"app": "com.example.Inbox", "links": [{"match": "inbox://msg/{id}", "action": "forward"}]}"#

    private func appsFolder(_ world: DaemonHarness) -> URL {
        world.config.appendingPathComponent("linkd/apps.d")
    }

    /// The lines of the daemon's log at `log` that end a reading of the configuration ("configuration read: N apps,
    /// …"), oldest first.
    private func reads(_ log: String) -> [Substring] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").filter {
            $0.contains("configuration read: ")
        }
    }

    /// The reload is an inotify event, so it comes at once: the bound is loose because the machine may be busy with
    /// other tests (load tests beside it made it 1.8 s, and once over 15 s with two test runs at once on two cores);
    /// without the event no link would be claimed at all, however long the test waited.
    @Test func anAppAddedToAppsDWorksAtOnceWithoutARestart() throws {
        let world = try DaemonHarness()
        let log = world.root.path + "/daemon.log"
        let daemon = try world.startDaemon(["--idle-exit", "30"], stderrPath: log)
        defer { daemon.terminate() }
        #expect(try world.run(["open", "inbox://msg/1"]).status == 1)
        try Data(Self.inbox.utf8).write(to: appsFolder(world).appendingPathComponent("inbox.json"))
        let written = ContinuousClock.now
        #expect(
            world.waitForEvent(.configurationRead, in: log, within: .seconds(60)),
            "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")"
        )
        #expect(reads(log).last?.contains("configuration read: 2 apps") == true)
        #expect(ContinuousClock.now - written < .seconds(60))
        #expect(try world.run(["open", "inbox://msg/2"]).status == 0)
        #expect(world.daemonPIDs() == [daemon.pid], "the same daemon: no restart")
        #expect(
            try String(contentsOfFile: log, encoding: .utf8).contains("the configuration changed: reading it again")
        )
    }

    /// A program installed after the configuration was read is not a change of apps.d: SIGHUP (the unit's
    /// `ExecReload=`) reads the configuration again, and the link runs it.
    @Test func sighupReadsTheConfigurationAgain() throws {
        let world = try DaemonHarness()
        let app =
            #"{"app": "com.example.Late", "links": [{"match": "late://x", "action": {"exec": ["late-handler"]}}]}"#
        try Data(app.utf8).write(to: appsFolder(world).appendingPathComponent("late.json"))
        let environment = ["HOME": world.root.path]
        let log = world.root.path + "/daemon.log"
        let daemon = try world.startDaemon(["--idle-exit", "30"], extra: environment, stderrPath: log)
        defer { daemon.terminate() }
        let missing = try world.run(["open", "late://x"])
        #expect(missing.status == 69)
        #expect(missing.stderr.contains("the program 'late-handler' cannot be found; run 'linkd check'"), "\(missing)")
        let bin = world.root.appendingPathComponent(".local/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let handler = try world.script("late-handler", "cat > \(world.received.path)\n")
        try FileManager.default.moveItem(at: handler, to: bin.appendingPathComponent("late-handler"))
        let before = world.daemonEvents(in: log).count { $0.event == .configurationRead }
        kill(daemon.pid, SIGHUP)
        #expect(world.waitForEvent(.configurationRead, count: before + 1, in: log, within: .seconds(5)))
        #expect(try world.run(["open", "late://x"]).status == 0)
        #expect(world.waitUntil(.seconds(5)) { world.receivedPayloads().count == 1 })
        #expect(world.daemonPIDs() == [daemon.pid])
    }

    /// 1,000 writes while links stream in: a few reloads, every link acted on, and a broken file keeps the good apps.
    @Test func aStormOfWritesCausesAFewReloadsAndLosesNoLink() throws {
        let world = try DaemonHarness()
        let log = world.root.path + "/daemon.log"
        let daemon = try world.startDaemon(["--idle-exit", "30"], stderrPath: log)
        defer { daemon.terminate() }
        let file = appsFolder(world).appendingPathComponent("inbox.json")
        let links = (0..<200).map { "myapp://note/s\($0)" }.joined(separator: "\n") + "\n"
        let streaming = DispatchQueue(label: "stream")
        let output = Lock<LinkdProcess.Output?>(nil)
        streaming.async {
            let result = try? world.run(["open", "-"], stdin: Data(links.utf8))
            output.withLock { $0 = result }
        }
        let clock = ContinuousClock()
        let writing = clock.now
        for index in 0..<1_000 {
            // Every other write is broken JSON: the good app (notes.json) keeps working throughout.
            try Data((index % 2 == 0 ? Self.inbox : "{").utf8).write(to: file)
        }
        try Data(Self.inbox.utf8).write(to: file)
        // A third app, written last: a reading that finds it read the storm's last write too.
        let third = #"{"app": "com.example.Third", "links": [{"match": "third://x", "action": "forward"}]}"#
        try Data(third.utf8).write(to: appsFolder(world).appendingPathComponent("third.json"))
        // The daemon reads again after 100 ms without a change: a loaded machine that pauses this loop for longer
        // than that earns it one more reload per pause.
        let pauses = Int((clock.now - writing) / .milliseconds(100))
        streaming.sync {}
        let streamed = output.withLock { $0 }
        #expect(streamed?.status == 0, "\(String(describing: streamed))")
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 200 })
        #expect(
            world.waitUntil(.seconds(5)) {
                world.daemonEvents(in: log).last { $0.event == .configurationRead }?.message
                    .hasPrefix("configuration read: 3 apps") == true
            }
        )
        #expect(try world.run(["open", "inbox://msg/3"]).status == 0)
        let reloads =
            try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "reading it again").count - 1
        #expect(reloads >= 1 && reloads <= max(10, pauses + 3), "\(reloads) reloads for 1,001 writes")
    }
}
