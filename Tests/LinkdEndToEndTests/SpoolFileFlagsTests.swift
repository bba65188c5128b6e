import Foundation
import Glibc
import LinkdTestSupport
import LinkdWire
import Testing

/// The spool's files are private from their first instant: created 0600 with `O_EXCL|O_NOFOLLOW|O_CLOEXEC` (no
/// 0666-then-chmod window, no symbolic link followed, no descriptor leaked into the programs the daemon starts),
/// as the daemon's system calls show under strace.
@Suite(.ownThread) struct SpoolFileFlagsTests {
    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "needs strace"),
        .disabled(if: Sanitizer.isActive, "LeakSanitizer cannot run under ptrace")
    )
    func everySpoolFileIsCreatedPrivateExclusiveAndCloseOnExec() throws {
        let world = try DaemonHarness()
        let trace = world.root.appendingPathComponent("trace.txt").path
        let daemon = try world.start(
            [
                "-f", "-e", "trace=openat,open,creat,chmod,fchmod,fchmodat", "-o", trace,
                LinkdProcess.executable.path, "daemon", "--idle-exit", "30",
            ],
            executable: "/usr/bin/strace",
            stderrPath: try world.logFile()
        )
        // SIGTERM to the daemon itself: strace, sent one, would leave it running.
        let stop = {
            for pid in world.daemonPIDs() { kill(pid, SIGTERM) }
            daemon.waitUntilExit()
        }
        defer { stop() }
        #expect(world.waitForEvent(.listening, within: .seconds(20)), "\(world.daemonLog())")
        #expect(try world.run(["open", "myapp://note/1#access_token=a.b.c"]).status == 0)
        #expect(try world.run(["open", "myapp://inbox/2"]).status == 0)  // queued: its entry stays
        stop()
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains(world.spoolPath + "/") }
        let creations = calls.filter { $0.contains("O_CREAT") }
        #expect(creations.count >= 2, "\(calls)")
        for call in creations {
            for flag in ["O_EXCL", "O_NOFOLLOW", "O_CLOEXEC"] { #expect(call.contains(flag), "\(call)") }
            #expect(call.contains(", 0600)") || call.contains(", 0600 <unfinished"), "\(call)")
        }
        #expect(calls.filter { $0.contains("chmod") }.isEmpty, "\(calls)")
    }
}
