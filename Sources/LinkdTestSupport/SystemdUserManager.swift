package import Foundation
import Glibc

/// A real `systemd --user` manager in a private mount namespace: a tmpfs on /run/systemd with
/// /run/systemd/system, and its own HOME and XDG_RUNTIME_DIR. The units are installed and enabled
/// (`sockets.target.wants`) before it starts, so it listens on linkd's socket from boot; activity is observed in
/// /proc rather than through `systemctl`, whose exit Foundation's `Process` did not reap inside the test process.
///
/// The manager is stopped and its folder removed when the value goes.
package final class SystemdUserManager: Sendable {
    /// Whether one can run here: as root, with `unshare` and systemd installed.
    package static var isAvailable: Bool {
        getuid() == 0 && access("/usr/lib/systemd/systemd", X_OK) == 0 && access("/usr/bin/unshare", X_OK) == 0
    }

    /// The manager's folder, `/tmp/linkd-sd-<random>`.
    package let root: URL
    /// Its HOME, with the units in `.config/systemd/user`.
    package let home: URL
    /// Its XDG_RUNTIME_DIR, where its private bus and linkd's socket are.
    package let runtime: URL
    private let manager: SpawnedProcess

    /// The machine's environment with the manager's HOME and XDG_RUNTIME_DIR and no XDG config or state folders:
    /// the environment for a `linkd` that talks to this manager.
    package var environment: [String: String] {
        ProcessInfo.processInfo.environment(changing: [
            "HOME": home.path, "XDG_RUNTIME_DIR": runtime.path, "XDG_CONFIG_HOME": nil, "XDG_STATE_HOME": nil,
        ])
    }

    /// Installs the shipped units (ExecStart at the built binary, with `daemonArguments`), starts the manager and
    /// waits for its `READY=1`, which a user manager sends on reaching `basic.target`, so once `sockets.target` is
    /// reached and linkd's socket listens.
    ///
    /// - Throws: when the units cannot be installed or the manager cannot be started; ``HarnessError`` when it exits,
    ///   or is not ready within 15 s.
    package init(daemonArguments: String) throws {
        root = URL(fileURLWithPath: "/tmp/linkd-sd-\(UUID().uuidString.prefix(8))")
        home = root.appendingPathComponent("home")
        runtime = root.appendingPathComponent("xrt")
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent(".config/systemd/user"),
            withIntermediateDirectories: true
        )
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        try Self.installUnits(in: home, daemonArguments: daemonArguments)
        let notify = try NotifySocket(path: root.path + "/notify")
        manager = try SpawnedProcess(
            "/usr/bin/unshare",
            [
                "-m", "--propagation", "private", "/bin/sh", "-c",
                "mkdir -p /run/systemd && mount -t tmpfs tmpfs /run/systemd && mkdir -p /run/systemd/system && "
                    + "exec env -i HOME=\(home.path) XDG_RUNTIME_DIR=\(runtime.path) PATH=/usr/sbin:/usr/bin:/sbin:/bin "
                    + "NOTIFY_SOCKET=\(notify.path) /usr/lib/systemd/systemd --user",
            ],
            environment: ProcessInfo.processInfo.environment,
            stdoutPath: root.path + "/manager.log",
            stderrPath: root.path + "/manager.err"
        )
        try notify.waitForReady(of: manager, timeout: .seconds(15))
    }

    deinit {
        manager.terminate()
        manager.waitUntilExit()
        try? FileManager.default.removeItem(at: root)
    }

    private static func installUnits(in home: URL, daemonArguments: String) throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let units = home.appendingPathComponent(".config/systemd/user")
        let socket = try String(
            contentsOf: repository.appendingPathComponent("packaging/systemd/linkd.socket"),
            encoding: .utf8
        )
        let service = try String(
            contentsOf: repository.appendingPathComponent("packaging/systemd/linkd.service"),
            encoding: .utf8
        )
        .replacingOccurrences(
            of: "ExecStart=/usr/bin/linkd daemon",
            with: "ExecStart=\(LinkdProcess.executable.path) daemon \(daemonArguments)"
        )
        try Data(socket.utf8).write(to: units.appendingPathComponent("linkd.socket"))
        try Data(service.utf8).write(to: units.appendingPathComponent("linkd.service"))
        let wants = units.appendingPathComponent("sockets.target.wants")
        try FileManager.default.createDirectory(at: wants, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: wants.appendingPathComponent("linkd.socket").path,
            withDestinationPath: "../linkd.socket"
        )
    }

    /// The pids of the daemons systemd started for this manager.
    package func daemonPIDs() -> [Int32] { linkdDaemonPIDs(runtime: runtime.path) }
}
