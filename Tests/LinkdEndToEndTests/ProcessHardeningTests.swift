import Foundation
import Glibc
import LinkdTestSupport
import LinkdWire
import Testing

/// linkd's processes hold tokens and passwords: no core file may keep them, and no other process of the same user
/// may read them out of memory — also outside systemd, whose unit would set the core limit alone.
@Suite(.ownThread) struct ProcessHardeningTests {
    /// The daemon, started without systemd, has a core limit of 0 and is not dumpable. It runs as `nobody` here: the
    /// kernel shows a non-dumpable process's `/proc/<pid>` files as root's, so that its own user cannot open them
    /// (its memory, its environment), where a dumpable one's belong to its user. It starts with no core limit at all,
    /// as a desktop session may give it.
    @Test(.enabled(if: getuid() == 0, "changing to another user needs root"))
    func theDaemonIsNotDumpableAndWritesNoCore() throws {
        let world = try DaemonHarness()
        let nobody: uid_t = 65_534
        for folder in [world.runtime, world.config, world.state] {
            for path in [folder.path] + (FileManager.default.subpathsOrEmpty(atPath: folder.path)) {
                chown(path, nobody, nobody)
            }
        }
        let daemon = try world.start(
            [
                "--core=unlimited:unlimited", "/usr/bin/setpriv", "--reuid=\(nobody)", "--regid=\(nobody)",
                "--clear-groups", LinkdProcess.executable.path, "daemon", "--idle-exit", "30",
            ],
            executable: "/usr/bin/prlimit",
            stderrPath: try world.logFile()
        )
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        #expect(world.waitForEvent(.listening, within: .seconds(10)), "\(world.daemonLog())")
        var status = stat()
        #expect(stat("/proc/\(daemon.pid)/status", &status) == 0)
        #expect(status.st_uid == 0, "owned by root, not by the daemon's user \(nobody)")
        let limits = try String(contentsOfFile: "/proc/\(daemon.pid)/limits", encoding: .utf8)
        let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
        #expect(core?.split(separator: " ").dropFirst(4).first == "0", "\(core ?? "no core limit")")
    }
}

extension FileManager {
    fileprivate func subpathsOrEmpty(atPath path: String) -> [String] {
        (subpaths(atPath: path) ?? []).map { path + "/" + $0 }
    }
}
