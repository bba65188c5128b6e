import CSystemd
import Glibc

extension Subprocess.Running {
    /// The exit status if the child has exited (reaping it), `nil` while it runs. A signal death is `128 + signal`.
    package func exitStatusIfExited() -> Int32? {
        var status: Int32 = 0
        guard case .success(let reaped) = retryingOnInterrupt({ waitpid(pid, &status, WNOHANG) }), reaped == pid
        else { return nil }
        return Self.code(status)
    }

    /// Waits, through the ``Reactor``, until the child exits, and reaps it; `deadline` ends the wait first.
    ///
    /// - Returns: the exit status (a signal death is `128 + signal`).
    /// - Throws: ``ReactorError/timedOut`` at `deadline`, `CancellationError`; the child is not reaped then.
    package func exitStatus(deadline: ContinuousClock.Instant? = nil, reactor: Reactor = .shared) async throws -> Int32
    {
        while true {
            if let status = exitStatusIfExited() { return status }
            try await reactor.wait(for: exitDescriptor, deadline: deadline)
        }
    }

    /// Waits, blocking the thread, until the child exits, and reaps it: for the command line, never the daemon.
    package func waitForExit() -> Int32 {
        var status: Int32 = 0
        guard case .success = retryingOnInterrupt({ waitpid(pid, &status, 0) }) else { return 127 }
        return Self.code(status)
    }

    /// Sends `signal` (SIGTERM by default) to the child, if it has not been reaped.
    package func send(_ signal: Int32 = SIGTERM) {
        _ = kill(pid, signal)
    }

    /// Ends the child politely: SIGTERM, then SIGKILL when it has not exited `grace` later; reaps it.
    ///
    /// - Returns: its exit status (`128 + signal` for a signal death).
    package func terminate(grace: Duration, reactor: Reactor = .shared) async -> Int32 {
        if let status = exitStatusIfExited() { return status }
        send(SIGTERM)
        if let status = try? await exitStatus(deadline: .now + grace, reactor: reactor) { return status }
        send(SIGKILL)
        return (try? await exitStatus(reactor: reactor)) ?? 128 + SIGKILL
    }

    /// Closes the exit descriptor and every pipe end this side holds.
    package func closeDescriptors(reactor: Reactor = .shared) {
        for descriptor in [exitDescriptor, input, output, errorOutput].compactMap({ $0 }) {
            reactor.forget(descriptor)
            descriptor.close()
        }
    }

    private static func code(_ status: Int32) -> Int32 {
        status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}

extension Subprocess {
    /// Runs the child to its end, blocking the thread (for the command line, never the daemon), and collects what it
    /// writes to standard output, at most `limit` bytes (the rest is read and dropped).
    ///
    /// - Returns: the exit status and the output.
    /// - Throws: ``SystemError/spawnFailed(errno:)`` when it cannot be started.
    package func run(outputLimit limit: Int = 1 << 20) throws(SystemError) -> (status: Int32, output: [UInt8]) {
        var options = self
        options.output = .pipe
        let running = try options.spawn()
        defer { running.closeDescriptors() }
        var collected: [UInt8] = []
        if let output = running.output {
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while case .success(let count) = retryingOnInterrupt({ read(output.rawValue, &buffer, buffer.count) }),
                count > 0
            {
                collected += buffer[0..<min(count, max(0, limit - collected.count))]
            }
        }
        return (running.waitForExit(), collected)
    }
}
