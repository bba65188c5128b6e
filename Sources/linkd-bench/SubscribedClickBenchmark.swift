import Foundation
import Glibc
import LinkdClient
import LinkdSystem

/// What a click costs an app that takes its links on the session bus, on a private `dbus-daemon`
/// (``startBus(_:)``, started before the daemon, which serves the apps' interface on it):
///
/// - `subscribed_click_ms`: a warm `linkd open` of a `forward` link, from its start until a `LinkdClient`
///   subscriber in this process has the link as an event (the daemon signals it, the client reads it);
///   `ratio_subscribed_vs_warm_open` is that against `warm_open_no_subscriber_ms`, the same `linkd open` of a
///   `forward` link of an app no one subscribed as (spooled, queued, answered), interleaved (goal ≤ 1.2).
/// - `forward_cold_start_ms`: no one subscribed, the link's app started by its desktop entry (`"start":
///   "desktop"`, its `Exec` the example app `linkd-example-app`), from the start of `linkd open` until the app prints
///   the link; the app is ended after each round.
enum SubscribedClickBenchmark {
    static let app = "org.example.Bench"

    /// Starts a private session bus; its address and process.
    static func startBus(_ root: URL) throws -> (address: String, bus: Subprocess.Running) {
        var bus = Subprocess(
            ["/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"],
            environment: ["PATH": "/usr/bin:/bin"]
        )
        bus.output = .pipe
        let running = try bus.spawn()
        guard let output = running.output, let line = output.readLine(), !line.isEmpty else {
            throw BenchError("dbus-daemon printed no address")
        }
        return (String(decoding: line, as: UTF8.self), running)
    }

    /// The apps of these figures: one a subscriber takes the links of, one started by its desktop entry.
    static let apps = #"""
        {"app": "org.example.Subscribed", "links": [{"match": "subscribed://link/{id}", "action": "forward"}]}
        """#
    static let startedApp = #"""
        {"app": "org.example.Started", "links": [
          {"match": "started://link/{id}", "action": {"forward": {"start": "desktop"}}}]}
        """#

    /// Writes the two apps and the started one's desktop entry (its `Exec` the example app, printing to `output`).
    static func prepare(_ world: OpenBenchmark.World, exampleApp: String, output: URL) throws {
        let apps = world.root.appendingPathComponent("config/linkd/apps.d")
        try Data(Self.apps.utf8).write(to: apps.appendingPathComponent("subscribed.json"))
        try Data(startedApp.utf8).write(to: apps.appendingPathComponent("started.json"))
        let applications = world.root.appendingPathComponent("data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let entry =
            "[Desktop Entry]\nType=Application\nName=Started\n"
            + #"Exec=/bin/sh -c "exec \#(exampleApp) org.example.Started >>\#(output.path)""#
        try Data(entry.utf8).write(to: applications.appendingPathComponent("org.example.Started.desktop"))
    }

    static func subscribed(linkd: String, world: OpenBenchmark.World, bus: String) async throws -> [(String, String)] {
        let keyFile = world.runtime.url.path + "/linkd/keys/org.example.Subscribed"
        let key = try String(contentsOfFile: keyFile, encoding: .utf8).trimmingCharacters(in: .newlines)
        let client = try await LinkdClient.subscribe(app: "org.example.Subscribed", key: key, busAddress: bus)
        defer { client.close() }
        var events = client.events.makeAsyncIterator()
        let rounds = 101
        var subscribed: [Double] = []
        var queued: [Double] = []
        for round in 0..<rounds {
            let start = ContinuousClock.now
            let process = try Subprocess([linkd, "open", "subscribed://link/\(round)"], environment: world.environment)
                .spawn()
            guard case .link = await events.next() else { throw BenchError("the subscriber's events ended") }
            subscribed.append(milliseconds(since: start))
            _ = process.waitForExit()
            process.closeDescriptors()
            queued.append(OpenBenchmark.timed(linkd, ["open", "bench://queue/alone-\(round)"], world.environment))
        }
        let subscribedMedian = OpenBenchmark.median(subscribed)
        let queuedMedian = OpenBenchmark.median(queued)
        return [
            ("subscribed_click_ms", String(format: "%.2f", subscribedMedian)),
            ("warm_open_no_subscriber_ms", String(format: "%.2f", queuedMedian)),
            ("ratio_subscribed_vs_warm_open", String(format: "%.2f", subscribedMedian / queuedMedian)),
        ]
    }

    static func coldStart(
        linkd: String,
        world: OpenBenchmark.World,
        exampleApp: String,
        output: URL,
        bus: String
    ) async throws -> [(String, String)] {
        let observer = try BusEndpoint(address: bus)
        defer { observer.close() }
        let rounds = 11
        var starts: [Double] = []
        for round in 0..<rounds {
            let start = ContinuousClock.now
            _ = OpenBenchmark.timed(linkd, ["open", "started://link/\(round)"], world.environment)
            let line = "link started://link/{id} id=\(round)"
            let deadline = ContinuousClock.now + .seconds(30)
            while !((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains(line) {
                guard ContinuousClock.now < deadline else { throw BenchError("the started app never got its link") }
                usleep(500)
            }
            starts.append(milliseconds(since: start))
            try await endApp(exampleApp, observer: observer)
        }
        return [("forward_cold_start_ms", String(format: "%.2f", OpenBenchmark.median(starts)))]
    }

    /// Ends every process of `program`, and waits until the daemon has let its subscription go (`Subscribers`): its
    /// next link starts it again.
    static func endApp(_ program: String, observer: BusEndpoint) async throws {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline"),
                String(decoding: data, as: UTF8.self).hasPrefix(program + "\u{0}")
            else { continue }
            kill(pid, SIGTERM)
            while kill(pid, 0) == 0 { usleep(1_000) }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let reply = await observer.call(
                destination: "io.linkd.Linkd1",
                path: "/io/linkd/Linkd1",
                interface: "io.linkd.Linkd1",
                member: "Subscribers",
                arguments: []
            )
            guard case .success(let values) = reply, values.first?.dictionary?["org.example.Started"] != nil else {
                return
            }
            usleep(1_000)
        }
        throw BenchError("the daemon kept the ended app subscribed")
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
    }
}

/// Why a benchmark could not run.
struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
