import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// The `forward` action: links for a running app that subscribed on the socket, queued until it does.
@Suite(.ownThread, .serialized) struct ForwardTests {
    private func urls(_ lines: [String?]) -> [String?] {
        lines.map { line in
            line.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }?["url"]
                as? String
        }
    }

    @Test func queuesUntilTheAppSubscribesThenDeliversEachLinkOnce() throws {
        let world = try DaemonHarness()
        let queued = try world.run(["open", "myapp://inbox/1?code=c1", "myapp://inbox/2"])
        #expect(
            queued.stdout
                == "queued: myapp://inbox/{id} → com.example.Notes\nqueued: myapp://inbox/{id} → com.example.Notes\n"
        )
        #expect(queued.status == 0)
        let subscriber = try world.subscribe()
        defer { close(subscriber) }
        #expect(
            urls([subscriber.readLine(), subscriber.readLine()]) == ["myapp://inbox/1?code=c1", "myapp://inbox/2"]
        )
        let live = try world.run(["open", "myapp://inbox/3"])
        #expect(live.stdout == "delivered: myapp://inbox/{id} → com.example.Notes\n")
        let line = subscriber.readLine()
        #expect(urls([line]) == ["myapp://inbox/3"])
        let payload = try #require(
            line.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        )
        #expect(payload["route"] as? String == "myapp://inbox/{id}")
        #expect((payload["fields"] as? [String: String])?["id"] == "3")
        let late = try world.subscribe()
        defer { close(late) }
        #expect(late.readLine(timeout: .seconds(1)) == nil)  // nothing is delivered twice
        #expect(
            world.waitUntil(.seconds(3)) {
                world.spooledURLs().isEmpty
            }
        )
    }

    @Test func linksQueueAgainWhenTheSubscriberGoesAway() throws {
        let world = try DaemonHarness()
        let first = try world.ensureDaemon().subscribe()
        close(first)
        #expect(world.waitUntil(.seconds(5)) { world.daemonLog().contains("subscriber went away") })
        #expect(
            try world.run(["open", "myapp://inbox/7"]).stdout == "queued: myapp://inbox/{id} → com.example.Notes\n"
        )
        let second = try world.subscribe()
        defer { close(second) }
        #expect(urls([second.readLine()]) == ["myapp://inbox/7"])
    }

    /// A subscriber that takes no line for 5 s (its socket buffer full all that time) is let go, saying so in the
    /// log; the links it had not taken come, each once, to its next subscription.
    @Test func aSubscriberThatStopsReadingIsLetGoAndItsLinksComeToTheNextSubscription() throws {
        let world = try DaemonHarness()
        try FileManager.default.createDirectory(atPath: world.spoolPath, withIntermediateDirectories: true)
        let held = (0..<1_000).map { "myapp://inbox/\($0)" }
        for (number, url) in held.enumerated() {
            let members = #""app": "com.example.Notes", "expires": 4102444800"#
            let id = SpoolFiles.id(number)
            SpoolFiles.write(
                SpoolFiles.entry(id: id, url: url, kind: "forward", members: members),
                to: "\(world.spoolPath)/\(id).json"
            )
        }
        let logPath = world.root.appendingPathComponent("daemon.log").path
        let daemon = try world.startDaemon(["--idle-exit", "30"], stderrPath: logPath, timeout: .seconds(30))
        defer { daemon.terminate() }
        let stalled = try world.subscribe()
        let warning = "com.example.Notes's subscriber took no line for 5 s and is let go"
        let log = { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        #expect(world.waitUntil(.seconds(20)) { log().contains(warning) }, "\(log())")
        var taken: [String] = []
        while let line = stalled.readLine(timeout: .seconds(5)) {
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            if let url = object?["url"] as? String { taken.append(url) }  // else the line the drop cut off
        }
        close(stalled)
        #expect(!taken.isEmpty && taken.count < held.count, "the socket buffer held some, not all")
        let rest = try world.forwardedURLs(of: "com.example.Notes", count: held.count - taken.count).urls
        #expect((taken + rest).sorted() == held.sorted(), "each link once")
        print("stalled subscriber: \(taken.count) links in its socket buffer, \(rest.count) to the next subscription")
    }

    @Test func queuedLinksExpireAfterTheirTimeToLive() throws {
        let world = try DaemonHarness()
        let daemon = try world.startDaemon(
            ["--idle-exit", "10"],
            extra: ["LINKD_FORWARD_TTL": "1"],
            timeout: .seconds(5)
        )
        defer { daemon.terminate() }
        #expect(FileManager.default.fileExists(atPath: world.socketPath))
        #expect(try world.run(["open", "myapp://inbox/1"]).stdout.hasPrefix("queued: "))
        // At its 1 s time to live the link leaves the spool.
        #expect(world.waitUntil(.seconds(5)) { world.spooledURLs().isEmpty })
        let subscriber = try world.subscribe()
        defer { close(subscriber) }
        #expect(subscriber.readLine(timeout: .seconds(1)) == nil)
        #expect(world.spooledURLs().isEmpty)
    }

    @Test func theQueueSurvivesTheDaemonsIdleExit() throws {
        let world = try DaemonHarness()
        let daemon = try world.startDaemon(["--idle-exit", "1"], timeout: .seconds(5))
        #expect(FileManager.default.fileExists(atPath: world.socketPath))
        // An open connection holds the daemon while `linkd open` starts, however slowly a loaded machine runs it.
        let holder = try world.connect()
        #expect(try world.run(["open", "myapp://inbox/9"]).stdout.hasPrefix("queued: "))
        close(holder)
        daemon.waitUntilExit()
        #expect(world.daemonPIDs().isEmpty)
        let subscriber = try world.ensureDaemon().subscribe()
        defer { close(subscriber) }
        #expect(urls([subscriber.readLine()]) == ["myapp://inbox/9"])
    }
}

extension DaemonHarness {
    /// Starts a daemon (through `linkd open` of a link no app claims) and returns self.
    func ensureDaemon() throws -> DaemonHarness {
        _ = try run(["open", "myapp://unclaimed"])
        return self
    }

    /// A new connection subscribed to com.example.Notes's `forward` links; the caller closes it.
    func subscribe() throws -> Int32 {
        let (fd, answer) = try subscription()
        #expect(answer == Self.subscribedLine)
        return fd
    }

    static let subscribedLine = #"{"ok": true, "app": "com.example.Notes", "state": "subscribed"}"#

    /// A new connection that asked to subscribe, and the daemon's answer.
    func subscription() throws -> (fd: Int32, answer: String?) {
        let fd = try connect()
        fd.send(#"{"op": "subscribe", "app": "com.example.Notes"}"# + "\n")
        return (fd, fd.readLine())
    }
}
