import Foundation
import Glibc
import LinkdSystem

/// The cold click of `linkd-bench open`: `linkd open LINK` while no daemon runs and a real `systemd --user` manager
/// listens on linkd's socket (the package's units), until the link's `exec` program has read it — what a click
/// costs when linkd has been idle. Needs root (the manager runs in a private mount namespace, with a tmpfs on
/// /run/systemd); elsewhere the figures are skipped, saying why.
enum ColdClickBenchmark {
    /// A user manager of its own, in a private mount namespace, with linkd's units and one app. (The tests'
    /// `SystemdUserManager` does the same, but LinkdTestSupport links Swift Testing, which a statically linked
    /// release benchmark cannot.)
    final class Manager {
        /// Under /home: the daemon's unit gives it a /tmp and a /dev of its own (PrivateTmp=, PrivateDevices=), and
        /// it must see its runtime folder (the session bus, the manager's notify socket) and its HOME.
        let root = URL(fileURLWithPath: "/home/linkd-bench-sd-\(getpid())")
        var home: URL { root.appendingPathComponent("home") }
        /// In the folder, not /dev/shm (see ``root``).
        let runtimeFolder: OpenBenchmark.RuntimeFolder
        var runtime: URL { runtimeFolder.url }
        var socket: String { runtime.path + "/linkd/socket" }
        var environment: [String: String] {
            ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": home.path, "XDG_RUNTIME_DIR": runtime.path]
        }
        private var process: Subprocess.Running?

        /// Installs the units of `packaging/systemd` (ExecStart at `linkd`) and starts the manager.
        init(linkd: String) throws {
            runtimeFolder = try .make(named: "xrt", fallback: root, onTmpfs: false)
            let units = home.appendingPathComponent(".config/systemd/user")
            let wants = units.appendingPathComponent("sockets.target.wants")
            let apps = home.appendingPathComponent(".config/linkd/apps.d")
            for folder in [wants, apps] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            let packaging = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("packaging/systemd")
            for unit in ["linkd.socket", "linkd.service"] {
                let text = try String(contentsOf: packaging.appendingPathComponent(unit), encoding: .utf8)
                    .replacingOccurrences(of: "ExecStart=/usr/bin/linkd ", with: "ExecStart=\(linkd) ")
                    // A linkd built under /tmp is seen inside the sandbox, whose /tmp is its own (PrivateTmp=).
                    .replacingOccurrences(
                        of: "\n[Service]\n",
                        with: linkd.hasPrefix("/tmp/")
                            ? "\n[Service]\nBindReadOnlyPaths=\(linkd[..<(linkd.lastIndex(of: "/") ?? linkd.endIndex)])\n"
                            : "\n[Service]\n"
                    )
                try Data(text.utf8).write(to: units.appendingPathComponent(unit))
            }
            try FileManager.default.createSymbolicLink(
                atPath: wants.appendingPathComponent("linkd.socket").path,
                withDestinationPath: "../linkd.socket"
            )
            try Data(OpenBenchmark.benchApp.utf8).write(to: apps.appendingPathComponent("bench.json"))
            let start =
                "mkdir -p /run/systemd && mount -t tmpfs tmpfs /run/systemd && mkdir -p /run/systemd/system && "
                + "exec /usr/lib/systemd/systemd --user"
            var manager = Subprocess(
                ["/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c", start],
                environment: environment
            )
            manager.output = .null
            manager.errorOutput = .null
            process = try manager.spawn()
            let deadline = ContinuousClock.now + .seconds(15)
            while access(socket, F_OK) != 0 {
                guard ContinuousClock.now < deadline else { throw BenchError("the user manager did not listen") }
                usleep(10_000)
            }
        }

        /// Stops linkd's service (its socket keeps listening) and waits until it is gone.
        func stopDaemon() {
            _ = OpenBenchmark.timed("/usr/bin/systemctl", ["--user", "stop", "linkd.service"], environment)
        }

        deinit {
            if let process {
                process.send(SIGTERM)
                _ = process.waitForExit()
                process.closeDescriptors()
            }
            try? FileManager.default.removeItem(at: root)
            runtimeFolder.remove()
        }
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Whether a user manager can be started here, or why not.
    static var unavailableReason: String? {
        if getuid() != 0 { return "not root" }
        if access("/usr/lib/systemd/systemd", X_OK) != 0 { return "no /usr/lib/systemd/systemd" }
        if access("/usr/bin/unshare", X_OK) != 0 { return "no unshare" }
        return nil
    }

    /// Median milliseconds of a cold click and of a warm one right after it, `rounds` of each, interleaved.
    static func run(linkd: String, rounds: Int) throws -> (cold: Double, warm: Double) {
        let manager = try Manager(linkd: linkd)
        var cold: [Double] = []
        var warm: [Double] = []
        for round in 0..<rounds {
            manager.stopDaemon()
            cold.append(OpenBenchmark.timed(linkd, ["open", "bench://exec/c\(round)"], manager.environment))
            warm.append(OpenBenchmark.timed(linkd, ["open", "bench://exec/w\(round)"], manager.environment))
        }
        return (OpenBenchmark.median(cold), OpenBenchmark.median(warm))
    }
}
