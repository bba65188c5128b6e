import Foundation
import Glibc
import LinkdSystem

/// A child process started with `posix_spawn(3)` and reaped with a blocking `waitpid(2)` on its own pid.
///
/// Foundation's `Process` relies on seeing SIGCHLD; with a `systemd --user` manager among the test process's children
/// it missed exits and left zombies. A blocking `waitpid` on the exact pid does not depend on signals.
final class SpawnedProcess: @unchecked Sendable {
    // @unchecked: `status` is written once, by `waitUntilExit()` on the caller's thread, and read after it.
    let pid: pid_t
    private(set) var terminationStatus: Int32 = -1
    private var exited = false

    /// Starts `executable` with `arguments`, `environment`, standard input from `stdinPath` and output to the paths.
    init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String],
        stdinPath: String = "/dev/null",
        stdoutPath: String = "/dev/null",
        stderrPath: String = "/dev/null"
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Tests run in parallel: without this a child could inherit a descriptor another test holds open for writing
        // a script, and the script's exec would fail with ETXTBSY for as long as the child lives.
        SpawnAttributes.closeInherited(&actions)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        // The test runner blocks signals on its threads; a child must not inherit that, or SIGTERM could not stop it.
        let result = SpawnAttributes.withClean { posix_spawn(&pid, executable, &actions, $0, argv, envp) }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        self.pid = pid
    }

    /// Waits for the child and records its status (`128 + signal` for a signal death).
    func waitUntilExit() {
        guard !exited else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        terminationStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        exited = true
    }

    /// Sends SIGTERM.
    func terminate() {
        kill(pid, SIGTERM)
    }
}

/// A scratch folder for one spawned command's standard streams.
enum SpawnFiles {
    static func make() -> URL {
        let folder = URL(fileURLWithPath: "/tmp/linkd-io-\(UUID().uuidString.prefix(12))")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
