import Foundation
import Glibc

/// A real `systemd --user` manager in a private mount namespace: a tmpfs on /run/systemd with
/// /run/systemd/system, and its own HOME and XDG_RUNTIME_DIR. The units are installed and enabled
/// (`sockets.target.wants`) before it starts, so it listens on linkd's socket from boot; activity is observed in
/// /proc rather than through `systemctl`, whose exit Foundation's `Process` did not reap inside the test process.
final class SystemdUserManager: Sendable {
    static var isAvailable: Bool {
        getuid() == 0 && access("/usr/lib/systemd/systemd", X_OK) == 0 && access("/usr/bin/unshare", X_OK) == 0
    }

    let root: URL
    let home: URL
    let runtime: URL
    private let manager: SpawnedProcess

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment.removeValue(forKey: "XDG_CONFIG_HOME")
        environment.removeValue(forKey: "XDG_STATE_HOME")
        return environment
    }

    /// Installs the shipped units (ExecStart at the built binary, with `daemonArguments`) and starts the manager.
    init(daemonArguments: String) throws {
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
        manager = try SpawnedProcess(
            "/usr/bin/unshare",
            [
                "-m", "--propagation", "private", "/bin/sh", "-c",
                "mkdir -p /run/systemd && mount -t tmpfs tmpfs /run/systemd && mkdir -p /run/systemd/system && "
                    + "exec env -i HOME=\(home.path) XDG_RUNTIME_DIR=\(runtime.path) PATH=/usr/sbin:/usr/bin:/sbin:/bin "
                    + "/usr/lib/systemd/systemd --user",
            ],
            environment: ProcessInfo.processInfo.environment,
            stdoutPath: root.path + "/manager.log",
            stderrPath: root.path + "/manager.err"
        )
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: runtime.path + "/systemd/private") && Date() < deadline {
            usleep(50_000)
        }
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
    func daemonPIDs() -> [Int32] { linkdDaemonPIDs(runtime: runtime.path) }
}
