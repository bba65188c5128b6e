import CSystemd
import Glibc

/// A program to start: its arguments, environment, folder and standard streams. The one way linkd starts programs
/// (an `exec` action's, an askpass helper, `gio`, `systemctl`, the autostarted daemon).
///
/// The child inherits no descriptor but its three standard streams, blocks no signal and has every signal at its
/// default action, whatever this process did with them.
package struct Subprocess: Sendable {
    /// Where a standard stream of the child comes from or goes.
    package enum Stream: Sendable, Equatable {
        /// `/dev/null`.
        case null
        /// A pipe whose other end the caller gets in ``Running``.
        case pipe
        /// A descriptor of this process (it stays open here).
        case descriptor(FileDescriptor)
        /// For standard error: wherever standard output goes (one pipe for both, read in order).
        case sameAsOutput
    }

    /// `arguments[0]` is the program: a path, or a name searched on the `PATH` of `environment`'s caller.
    package var arguments: [String]
    package var environment: [String: String]
    /// The child's working folder; `nil` keeps this process's.
    package var directory: String?
    package var input: Stream = .null
    package var output: Stream = .null
    package var errorOutput: Stream = .null
    /// Whether the child gets SIGKILL when this process dies (`PR_SET_PDEATHSIG`).
    package var diesWithParent = false
    /// Whether the child starts a session of its own (`setsid(2)`), leaving this process's terminal.
    package var startsNewSession = false

    package init(_ arguments: [String], environment: [String: String], directory: String? = nil) {
        precondition(!arguments.isEmpty, "a program to run")
        self.arguments = arguments
        self.environment = environment
        self.directory = directory
    }

    /// A started child.
    package struct Running: Sendable {
        package let pid: Int32
        /// Readable once the child has exited (`pidfd_open(2)`); the owner closes it.
        package let exitDescriptor: FileDescriptor
        /// The write end of the child's standard input, for ``Stream/pipe``; the owner closes it.
        package let input: FileDescriptor?
        /// The read end of the child's standard output, for ``Stream/pipe``; the owner closes it.
        package let output: FileDescriptor?
        /// The read end of the child's standard error, for ``Stream/pipe``; the owner closes it.
        package let errorOutput: FileDescriptor?
    }

    /// Starts the child.
    ///
    /// - Throws: ``SystemError/spawnFailed(errno:)`` when it cannot be started. A program that cannot be executed
    ///   exits with status 127.
    package func spawn() throws(SystemError) -> Running {
        var ours: [FileDescriptor] = []  // the parent's ends of the pipes
        var theirs: [FileDescriptor] = []  // the child's ends, closed here once it has them
        defer { for descriptor in theirs { descriptor.close() } }
        func end(of stream: Stream, childReads: Bool) throws(SystemError) -> (child: CInt, parent: FileDescriptor?) {
            switch stream {
            case .null, .sameAsOutput: return (-1, nil)
            case .descriptor(let descriptor): return (descriptor.rawValue, nil)
            case .pipe:
                var fds: [CInt] = [0, 0]
                let result = linkd_pipe(&fds)
                guard result == 0 else {
                    for descriptor in ours { descriptor.close() }
                    throw .systemCall(operation: "create a pipe", errno: Errno(rawValue: -result))
                }
                let (child, parent) = childReads ? (fds[0], fds[1]) : (fds[1], fds[0])
                theirs.append(FileDescriptor(rawValue: child))
                ours.append(FileDescriptor(rawValue: parent))
                return (child, FileDescriptor(rawValue: parent))
            }
        }
        let stdin = try end(of: input, childReads: true)
        let stdout = try end(of: output, childReads: false)
        let stderr: (child: CInt, parent: FileDescriptor?) =
            errorOutput == .sameAsOutput ? (stdout.child, nil) : try end(of: errorOutput, childReads: false)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        let flags =
            (diesWithParent ? CInt(LINKD_SPAWN_DIES_WITH_PARENT) : 0)
            | (startsNewSession ? CInt(LINKD_SPAWN_NEW_SESSION) : 0)
        let pid = linkd_spawn(argv, envp, directory, stdin.child, stdout.child, stderr.child, flags)
        guard pid > 0 else {
            for descriptor in ours { descriptor.close() }
            throw .spawnFailed(errno: Errno(rawValue: -pid))
        }
        let exitFD = linkd_pidfd_open(pid)
        guard exitFD >= 0 else {
            _ = kill(pid, SIGKILL)
            _ = retryingOnInterrupt { waitpid(pid, nil, 0) }
            for descriptor in ours { descriptor.close() }
            throw .systemCall(operation: "watch a started program", errno: Errno(rawValue: -exitFD))
        }
        return Running(
            pid: pid,
            exitDescriptor: FileDescriptor(rawValue: exitFD),
            input: stdin.parent,
            output: stdout.parent,
            errorOutput: stderr.parent
        )
    }
}

extension Subprocess {
    /// Replaces this process with `arguments[0]` (looked for in `environment`'s `PATH` when it has no `/`), started as
    /// a launcher starts a program: in a session of its own, standard streams on `/dev/null`, signals at their
    /// defaults. It returns only when the program cannot be run; one that is missing or not executable changes
    /// nothing first.
    ///
    /// - Returns: why the program could not be run.
    package static func replaceProcess(with arguments: [String], environment: [String: String]) -> SystemError {
        guard !arguments.isEmpty else { return .spawnFailed(errno: .noEntry) }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        return .spawnFailed(errno: Errno(rawValue: -linkd_exec_detached(argv, envp)))
    }
}
