/// A program linkd started and watches: a child it spawned (``Subprocess/Running``), or the main process of a
/// transient unit the user's service manager started for it (``UnitProgram``).
package protocol LaunchedProgram: Sendable {
    var pid: Int32 { get }
    /// The unit it runs in, when the service manager started it.
    var unit: String? { get }
    /// Readable once it has exited.
    var exitDescriptor: FileDescriptor { get }
    /// The read end of its standard output (and error), when this side has one.
    var output: FileDescriptor? { get }
    /// Its exit status once it has exited (a signal death is `128 + signal`), `nil` while it runs.
    func exitStatusIfExited() async -> Int32?
    /// Waits until it exits; `deadline` ends the wait first (``ReactorError/timedOut``).
    func exitStatus(deadline: ContinuousClock.Instant?, reactor: Reactor) async throws -> Int32
    /// Ends it: SIGTERM, then SIGKILL when it has not exited `grace` later.
    func terminate(grace: Duration, reactor: Reactor) async -> Int32
    /// Closes what this side holds of it.
    func closeDescriptors(reactor: Reactor)
}

extension Subprocess.Running: LaunchedProgram {
    package var unit: String? { nil }
}

/// The program of a transient unit, with the read end of the pipe its output goes to.
package struct UnitProgram: LaunchedProgram {
    package let transient: TransientUnit
    package let output: FileDescriptor?

    package init(_ transient: TransientUnit, output: FileDescriptor) {
        self.transient = transient
        self.output = output
    }

    package var pid: Int32 { transient.pid }
    package var unit: String? { transient.name }
    package var exitDescriptor: FileDescriptor { transient.exitDescriptor }

    package func exitStatusIfExited() async -> Int32? {
        let transient = transient
        return await BlockingCall.run { transient.exitStatusIfExited() }
    }

    /// Waits for the main process's pidfd, then for the manager to record how it ended (moments later).
    package func exitStatus(deadline: ContinuousClock.Instant?, reactor: Reactor) async throws -> Int32 {
        try await reactor.wait(for: exitDescriptor, deadline: deadline)
        for _ in 0..<400 {
            if let status = await exitStatusIfExited() { return status }
            try await Task.sleep(for: .milliseconds(5))
        }
        return 128 + 9  // the manager never said: as good as killed
    }

    /// Stops the unit: the manager sends SIGTERM, and SIGKILL 5 s later (its `TimeoutStopSec`, whatever `grace`).
    package func terminate(grace: Duration, reactor: Reactor) async -> Int32 {
        let transient = transient
        await BlockingCall.run { transient.stop() }
        return (try? await exitStatus(deadline: nil, reactor: reactor)) ?? 128 + 9
    }

    package func closeDescriptors(reactor: Reactor) {
        reactor.forget(exitDescriptor)
        if let output {
            reactor.forget(output)
            output.close()
        }
        transient.close()
    }
}

extension LaunchedProgram {
    /// Waits until it exits, through the shared reactor.
    package func exitStatus() async throws -> Int32 { try await exitStatus(deadline: nil, reactor: .shared) }

    /// Closes what this side holds of it, with the shared reactor.
    package func closeDescriptors() { closeDescriptors(reactor: .shared) }

    /// How the log names it: `pid N`, or `unit NAME, pid N`.
    package var identity: String { unit.map { "unit \($0), pid \(pid)" } ?? "pid \(pid)" }
}
