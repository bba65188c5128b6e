import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// What the tests take for a world's daemons: a process whose command line is `linkd daemon` and whose runtime folder
/// is the world's, but not a child of such a process that has not called exec yet (a program the daemon is starting
/// reads as the daemon until then), which a test that kills "the daemon" must never kill.
@Suite(.ownThread) struct DaemonPIDsTests {
    @Test func aForkOfADaemonThatHasNotCalledExecIsNotADaemon() throws {
        let world = try DaemonHarness()
        // bash run as `…/linkd daemon` (argv[0] set by exec -a), running the script `daemon`, forks a subshell that
        // stays bash (two commands: no exec): both read `linkd daemon`.
        let script = world.root.appendingPathComponent("daemon")
        try Data("( sleep 30; true ) &\necho > forked\nwait\n".utf8).write(to: script)
        let fake = try SpawnedProcess(
            "/bin/bash",
            ["-c", "cd \(world.root.path) && exec -a \(world.root.path)/linkd /bin/bash daemon"],
            environment: world.environment
        )
        defer {
            kill(-fake.pid, SIGKILL)
            kill(fake.pid, SIGKILL)
            fake.waitUntilExit()
        }
        let forked = world.root.appendingPathComponent("forked").path
        #expect(world.waitUntil(.seconds(30)) { FileManager.default.fileExists(atPath: forked) })
        // The subshell's own fork for `sleep` reads as `linkd daemon` too until it calls exec, which no file shows:
        // a poll, until only the two that stay are left.
        let twoMatch = world.poll(.seconds(30)) { Self.commandLines(of: world.runtime.path).count == 2 }
        #expect(twoMatch, "\(Self.commandLines(of: world.runtime.path))")
        #expect(world.daemonPIDs() == [fake.pid])
    }

    /// The pids whose command line is `…linkd daemon` and whose environment names `runtime`.
    private static func commandLines(of runtime: String) -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { pid in
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            let words = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.count >= 2 && words[0].hasSuffix("linkd") && words[1] == "daemon"
                && String(decoding: environ, as: UTF8.self).contains("XDG_RUNTIME_DIR=\(runtime)\0")
        }
    }
}
