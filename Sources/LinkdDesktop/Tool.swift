import Glibc
import LinkdSystem

/// Runs a helper program (`update-desktop-database`, `gio mime`, `systemctl --user`) and collects its output.
enum Tool {
    /// Runs `path arguments` with this process's environment; returns its exit status and standard output, or `nil`
    /// when it cannot start.
    static func run(_ path: String, _ arguments: [String]) -> (status: Int32, output: String)? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let started = SpawnAttributes.withClean { posix_spawn(&pid, path, &actions, $0, argv, environ) }
        close(fds[1])
        guard started == 0 else {
            close(fds[0])
            return nil
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, String(decoding: output, as: UTF8.self))
    }
}
