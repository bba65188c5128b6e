import CSystemd
import Glibc

/// A program started so that it dies with this process (`PR_SET_PDEATHSIG` = SIGKILL), with its standard input from
/// a pipe the caller writes, and no other inherited descriptor.
package struct ChildProcess: Sendable {
    /// The child's pid.
    package let pid: Int32
    /// The write end of the child's standard input.
    package let input: FileDescriptor
    /// A read end of the same pipe, kept to see when the child has read everything (``pendingInputBytes``).
    package let inputProbe: FileDescriptor

    /// Starts `arguments` (`arguments[0]` searched on `PATH`) with `environment` and standard output and error sent
    /// to `output`.
    ///
    /// - Throws: ``SystemdError/spawnFailed(errno:)`` or ``SystemdError/systemCall(operation:errno:)``. A program that
    ///   cannot be executed exits with status 127.
    package static func spawn(
        _ arguments: [String],
        environment: [String: String],
        output: FileDescriptor
    ) throws(SystemdError) -> ChildProcess {
        precondition(!arguments.isEmpty, "a program to run")
        var fds: [CInt] = [0, 0]
        // Not pipe2 (GNU-only in Glibc's module): the child closes every descriptor above 2 anyway.
        guard pipe(&fds) == 0, fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0 else {
            throw .systemCall(operation: "create a pipe", errno: errno)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        let pid = linkd_spawn(argv, envp, fds[0], output.rawValue)
        guard pid > 0 else {
            _ = close(fds[0])
            _ = close(fds[1])
            throw .spawnFailed(errno: -pid)
        }
        return ChildProcess(
            pid: pid,
            input: FileDescriptor(rawValue: fds[1]),
            inputProbe: FileDescriptor(rawValue: fds[0])
        )
    }

    /// Bytes written to the child's standard input that it has not read yet (`FIONREAD` on the probe).
    package var pendingInputBytes: Int {
        Int(max(0, linkd_readable_bytes(inputProbe.rawValue)))
    }

    /// The exit status if the child has exited (reaping it), `nil` while it runs. A signal death is `128 + signal`.
    package func exitStatusIfExited() -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return nil }
        if status & 0x7F == 0 { return (status >> 8) & 0xFF }
        return 128 + (status & 0x7F)
    }

    /// Sends SIGKILL.
    package func kill() {
        _ = Glibc.kill(pid, SIGKILL)
    }
}
