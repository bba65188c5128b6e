import Foundation
import Glibc
import LinkdSystem

/// `linkd-bench open`: the daemon path in numbers, all measured in one run against one daemon.
///
/// - `open_round_trip_ms` / `minimal_client_round_trip_ms`: median wall time of `linkd open LINK` and of
///   `linkd-mini-client` (connect, write the request, read the answer; Glibc only) over the same warm daemon, both
///   including process start, interleaved.
/// - `*_no_program_ms`: the same for a `forward` link (spooled, queued, answered; no program started).
/// - `links_per_second_*`: links through one `linkd open -` connection.
/// - `daemon_rss_*`: the daemon's resident memory idle and after 10,000 links.
/// - `linkd_binary_bytes`: linkd stripped, as the package installs it.
/// - `cold_click_ms`, `warm_click_under_systemd_ms`: ``ColdClickBenchmark``.
/// - `web_passthrough_ms`, `ratio_web_passthrough_vs_minimal`: ``WebPassthroughBenchmark``.
/// - `subscribed_click_ms`, `ratio_subscribed_vs_warm_open`, `forward_cold_start_ms`: ``SubscribedClickBenchmark``.
/// - `runtime_folder_fs`: what `XDG_RUNTIME_DIR` (the socket and the spool) is on: `tmpfs`, as on a desktop, where
///   logind mounts one at `/run/user/UID` — the spool's `fsync` is free there, and costs a disk write elsewhere.
enum OpenBenchmark {
    struct World {
        let root: URL
        let runtime: RuntimeFolder
        var environment: [String: String]
        var socket: String { runtime.url.path + "/linkd/socket" }
    }

    /// The `XDG_RUNTIME_DIR` of a benchmark: on a tmpfs like a desktop's (`/dev/shm`), else beside the rest on disk.
    struct RuntimeFolder {
        let url: URL
        let isTmpfs: Bool

        /// Makes `name` (mode 0700) in `/dev/shm` when a tmpfs is mounted there (and `onTmpfs`), else in `fallback`.
        static func make(named name: String, fallback: URL, onTmpfs: Bool = true) throws -> RuntimeFolder {
            let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
            let isTmpfs =
                onTmpfs
                && mounts.split(separator: "\n").contains { line in
                    let fields = line.split(separator: " ")
                    return fields.count > 2 && fields[1] == "/dev/shm" && fields[2] == "tmpfs"
                }
            let url = isTmpfs ? URL(fileURLWithPath: "/dev/shm/\(name)") : fallback.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            chmod(url.path, 0o700)
            return RuntimeFolder(url: url, isTmpfs: isTmpfs)
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// The app every figure uses: an `exec` program that reads its link and nothing more, and a reset.
    static let benchApp = #"""
        {"app": "org.example.Bench", "links": [
          {"match": "bench://exec/{id}", "action": {"exec": ["/bin/dd", "of=/dev/null", "status=none"]}},
          {"match": "bench://queue/{id}", "action": "forward"},
          {"match": "bench://reset", "format": "supabase", "action": "reset"}],
         "backend": {"kind": "supabase", "url": "https://abcd.supabase.co", "apiKey": "anon"}}
        """#

    static var linkdPath: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("linkd").path
    }

    static func makeWorld() throws -> World {
        let root = URL(fileURLWithPath: "/tmp/linkd-bench-\(getpid())")
        let apps = root.appendingPathComponent("config/linkd/apps.d")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        let runtime = try RuntimeFolder.make(named: "linkd-bench-\(getpid())-xrt", fallback: root)
        try Data(benchApp.utf8).write(to: apps.appendingPathComponent("bench.json"))
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.url.path
        environment["XDG_CONFIG_HOME"] = root.path + "/config"
        environment["XDG_STATE_HOME"] = root.path + "/state"
        environment["XDG_DATA_HOME"] = root.path + "/data"
        return World(root: root, runtime: runtime, environment: environment)
    }

    /// Runs `path arguments` with stdin from `stdinPath`, output discarded; returns the wall time in ms.
    static func timed(
        _ path: String,
        _ arguments: [String],
        _ environment: [String: String],
        stdinPath: String = "/dev/null"
    ) -> Double {
        let start = ContinuousClock.now
        var command = Subprocess([path] + arguments, environment: environment)
        let input = try? FileSystem.openForReading(stdinPath)
        command.input = input.map(Subprocess.Stream.descriptor) ?? .null
        if let running = try? command.spawn() {
            _ = running.waitForExit()
            running.closeDescriptors()
        }
        input?.close()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
    }

    static func residentMiB(_ pid: Int32) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// The size of `path` once stripped, as a package installs it (`strip` on a copy; the file itself when there is
    /// no `strip`).
    static func strippedSize(of path: String) -> Int {
        let copy = "/tmp/linkd-bench-stripped-\(getpid())"
        defer { unlink(copy) }
        _ = timed("/usr/bin/strip", ["--strip-unneeded", "-o", copy, path], ["PATH": "/usr/bin:/bin"])
        let measured = (try? FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int) ?? nil
        return measured ?? (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// One link at a time, `linkd open` beside the minimal client: an `exec` link, and one no program is started for
    /// (spooled, queued for its app, answered); the medians and their ratios.
    static func roundTrips(_ world: World, client clientPath: String) -> [(String, String)] {
        let rounds = 201
        var linkd: [Double] = []
        var minimal: [Double] = []
        var linkdQueued: [Double] = []
        var minimalQueued: [Double] = []
        for round in 0..<rounds {
            let link = "bench://exec/\(round)"
            linkd.append(timed(linkdPath, ["open", link], world.environment))
            minimal.append(timed(clientPath, [world.socket, link + "-m"], world.environment))
            let queued = "bench://queue/\(round)"
            linkdQueued.append(timed(linkdPath, ["open", queued], world.environment))
            minimalQueued.append(timed(clientPath, [world.socket, queued + "-m"], world.environment))
        }
        return [
            ("open_round_trip_ms", String(format: "%.2f", median(linkd))),
            ("minimal_client_round_trip_ms", String(format: "%.2f", median(minimal))),
            ("ratio_open_vs_minimal", String(format: "%.2f", median(linkd) / median(minimal))),
            ("open_round_trip_no_program_ms", String(format: "%.2f", median(linkdQueued))),
            ("minimal_client_round_trip_no_program_ms", String(format: "%.2f", median(minimalQueued))),
            ("ratio_open_vs_minimal_no_program", String(format: "%.2f", median(linkdQueued) / median(minimalQueued))),
            ("round_trips_measured", String(rounds)),
        ]
    }

    /// Files of links through one `linkd open -`: 10,000 reset links answered with no backend work, and 500 `exec`
    /// links; links per second of each.
    static func throughput(_ world: World) throws -> [(String, String)] {
        let count = 10_000
        let routeOnly = world.root.appendingPathComponent("route-only.txt")
        try Data((0..<count).map { "bench://reset?code=c\($0)\n" }.joined().utf8).write(to: routeOnly)
        // A client that cannot give a password (no askpass program, no terminal): each reset link is parsed, routed
        // and answered `no_password_source`, with no backend work.
        var noPassword = world.environment
        noPassword["PATH"] = world.root.path + "/no-askpass"
        noPassword.removeValue(forKey: "LINKD_ASKPASS")
        let routeMilliseconds = timed(linkdPath, ["open", "-"], noPassword, stdinPath: routeOnly.path)
        let execCount = 500
        let exec = world.root.appendingPathComponent("exec.txt")
        try Data((0..<execCount).map { "bench://exec/x\($0)\n" }.joined().utf8).write(to: exec)
        let execMilliseconds = timed(linkdPath, ["open", "-"], world.environment, stdinPath: exec.path)
        return [
            ("links_per_second_route_only", String(format: "%.0f", Double(count) / (routeMilliseconds / 1e3))),
            ("links_per_second_exec", String(format: "%.0f", Double(execCount) / (execMilliseconds / 1e3))),
        ]
    }

    static func run() async throws {
        let world = try makeWorld()
        defer {
            try? FileManager.default.removeItem(at: world.root)
            world.runtime.remove()
        }
        // A session bus of its own, which the daemon serves the apps' interface on.
        let (busAddress, bus) = try SubscribedClickBenchmark.startBus(world.root)
        defer {
            bus.send(SIGTERM)
            _ = bus.waitForExit()
            bus.closeDescriptors()
        }
        let exampleApp = URL(fileURLWithPath: linkdPath).deletingLastPathComponent().appendingPathComponent(
            "linkd-example-app"
        ).path
        let startedOutput = world.root.appendingPathComponent("started-app.out")
        try SubscribedClickBenchmark.prepare(world, exampleApp: exampleApp, output: startedOutput)
        // The daemon alone is on the bus: a `linkd open` with a session bus and no terminal also shows the outcome as
        // a desktop notification, which is the desktop's cost, not the click's way to the app.
        let daemon = try Subprocess(
            [linkdPath, "daemon", "--idle-exit", "120"],
            environment: world.environment.merging(["DBUS_SESSION_BUS_ADDRESS": busAddress]) { $1 }
        ).spawn()
        let daemonPID = daemon.pid
        defer {
            daemon.send(SIGTERM)
            _ = daemon.waitForExit()
            daemon.closeDescriptors()
        }
        while access(world.socket, F_OK) != 0 { usleep(10_000) }
        usleep(200_000)
        let idle = residentMiB(daemonPID)

        let clientPath = URL(fileURLWithPath: linkdPath).deletingLastPathComponent().appendingPathComponent(
            "linkd-mini-client"
        ).path
        var results = roundTrips(world, client: clientPath)
        results += try throughput(world)
        usleep(500_000)
        let after = residentMiB(daemonPID)
        results += [
            ("daemon_rss_idle_mib", String(format: "%.1f", idle)),
            ("daemon_rss_after_10000_links_mib", String(format: "%.1f", after)),
        ]
        results.append(("linkd_binary_bytes", String(strippedSize(of: linkdPath))))
        results.append(("runtime_folder_fs", world.runtime.isTmpfs ? "tmpfs" : "disk"))
        results += try WebPassthroughBenchmark.run(linkd: linkdPath, client: clientPath, world: world)
        results += try await SubscribedClickBenchmark.subscribed(linkd: linkdPath, world: world, bus: busAddress)
        results += try await SubscribedClickBenchmark.coldStart(
            linkd: linkdPath,
            world: world,
            exampleApp: exampleApp,
            output: startedOutput,
            bus: busAddress
        )
        results += try coldClick()
        for (name, value) in results { print("\(name): \(value)") }
    }

    /// The click that starts the daemon under a `systemd --user`, and one that finds it running; none (and a line
    /// saying why) where this machine cannot run that manager.
    private static func coldClick() throws -> [(String, String)] {
        if let reason = ColdClickBenchmark.unavailableReason {
            print("cold_click: skipped (\(reason))")
            return []
        }
        let click = try ColdClickBenchmark.run(linkd: linkdPath, rounds: 31)
        return [
            ("cold_click_ms", String(format: "%.2f", click.cold)),
            ("warm_click_under_systemd_ms", String(format: "%.2f", click.warm)),
        ]
    }
}
