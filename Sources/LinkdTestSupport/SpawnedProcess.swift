import Glibc
package import LinkdSystem

/// A child process of the test, started with ``Subprocess`` and reaped by a blocking wait on its own pid.
///
/// Foundation's `Process` relies on seeing SIGCHLD; with a `systemd --user` manager among the test process's children
/// it missed exits and left zombies. A blocking `waitpid` on the exact pid does not depend on signals. The child
/// inherits no descriptor but its standard streams (tests run in parallel, and a script another test holds open for
/// writing would make its exec fail with ETXTBSY) and no blocked signal (the test runner blocks some on its threads).
package final class SpawnedProcess: Sendable {
    /// The child's pid.
    package let pid: Int32
    /// The program, for error messages.
    package let program: String
    let running: Subprocess.Running
    /// The exit status once ``waitUntilExit()`` has reaped the child.
    private let status = Lock<Int32?>(nil)

    /// Starts `subprocess`; the descriptors it names as streams stay open here, for the caller to close.
    ///
    /// - Throws: ``SystemError/spawnFailed(errno:)`` when it cannot be started. A program that cannot be executed
    ///   is started all the same and exits with status 127.
    package init(_ subprocess: Subprocess) throws {
        running = try ProgramFile.start(subprocess)
        pid = running.pid
        program = subprocess.arguments[0]
    }

    /// Starts `executable` with `arguments` and `environment`, standard input from `stdinPath`, and standard output
    /// and error written to `stdoutPath` and `stderrPath` (created, or emptied when they exist).
    ///
    /// - Throws: ``SystemError`` when a file cannot be opened or the child cannot be started; no descriptor is
    ///   left open then.
    package convenience init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String],
        stdinPath: String = "/dev/null",
        stdoutPath: String = "/dev/null",
        stderrPath: String = "/dev/null"
    ) throws {
        var opened: [FileDescriptor] = []
        defer { for descriptor in opened { descriptor.close() } }
        opened.append(try FileSystem.openForReading(stdinPath))
        opened.append(try FileSystem.openForWriting(stdoutPath))
        opened.append(try FileSystem.openForWriting(stderrPath))
        var subprocess = Subprocess([executable] + arguments, environment: environment)
        subprocess.input = .descriptor(opened[0])
        subprocess.output = .descriptor(opened[1])
        subprocess.errorOutput = .descriptor(opened[2])
        try self.init(subprocess)
    }

    deinit {
        running.closeDescriptors()
    }

    /// The exit status (`128 + signal` for a signal death) once ``waitUntilExit()`` returned; -1 before.
    package var terminationStatus: Int32 { status.withLock { $0 } ?? -1 }

    /// Waits, blocking the thread, until the child exits, and records its status; returns at once when it did so
    /// before.
    package func waitUntilExit() {
        guard status.withLock({ $0 }) == nil else { return }
        let code = running.waitForExit()
        status.withLock { $0 = code }
    }

    /// Sends SIGTERM.
    package func terminate() {
        running.send(SIGTERM)
    }
}
