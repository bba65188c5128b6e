import CSystemd
import Glibc

extension Subprocess {
    /// Why a program did not take what it was given on standard input.
    package enum DeliveryFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// It exited before reading all of it.
        case exitedBeforeReading(status: Int32)
        /// It did not read all of it in time; it was killed.
        case stalled

        package var description: String {
            switch self {
            case .exitedBeforeReading(let status): "the program exited with status \(status) before reading the link"
            case .stalled: "the program did not read the link in time"
            }
        }
    }

    private enum DeliveryEvent: Sendable {
        case emptied
        case exited
        case stalled
    }

    /// Starts the program with `payload` on its standard input and returns once it has read all of it (see
    /// ``deliver(_:deadline:terminationGrace:reactor:start:started:)``).
    package func deliver(
        _ payload: [UInt8],
        deadline: ContinuousClock.Instant,
        terminationGrace: Duration = .seconds(5),
        reactor: Reactor = .shared,
        started: (any LaunchedProgram) -> Void = { _ in }
    ) async throws -> any LaunchedProgram {
        try await Self.deliver(
            payload,
            deadline: deadline,
            terminationGrace: terminationGrace,
            reactor: reactor,
            start: { input in
                var options = self
                options.input = .descriptor(input)
                return try options.spawn()
            },
            started: started
        )
    }

    /// Starts a program with `start`, giving it the read end of a pipe as its standard input, hands it `payload`
    /// there, and returns once it has read all of it.
    ///
    /// The input is a pipe of one page: the kernel reports it writable again only when the program has emptied it,
    /// so the wait is an event, not a poll; the program's exit is one too (its pidfd). A read end kept here stops the
    /// pipe from breaking when the program exits and tells how much it left unread. The write end is closed once
    /// the payload is read, so the program then sees the end of its input.
    ///
    /// - Parameter started: called once the program runs, before it is given anything (to record its identity).
    /// - Returns: the running program; the caller owns its other descriptors.
    /// - Throws: ``SystemError`` when it cannot start, ``DeliveryFailure`` when it exits or stalls first: at the
    ///   deadline it is terminated (SIGTERM, and SIGKILL `terminationGrace` later; at once when the task was
    ///   cancelled).
    package static func deliver(
        _ payload: [UInt8],
        deadline: ContinuousClock.Instant,
        terminationGrace: Duration = .seconds(5),
        reactor: Reactor = .shared,
        start: (FileDescriptor) async throws -> any LaunchedProgram,
        started: (any LaunchedProgram) -> Void = { _ in }
    ) async throws -> any LaunchedProgram {
        var fds: [CInt] = [0, 0]
        let made = linkd_pipe(&fds)
        guard made == 0 else {
            throw SystemError.systemCall(operation: "create a pipe", errno: Errno(rawValue: -made))
        }
        let probe = FileDescriptor(rawValue: fds[0])
        let writeEnd = FileDescriptor(rawValue: fds[1])
        defer { probe.close() }
        let sized = linkd_set_pipe_capacity(writeEnd.rawValue, 4_096)
        let running: any LaunchedProgram
        do {
            guard sized > 0 else {
                throw SystemError.systemCall(operation: "size a pipe", errno: Errno(rawValue: -sized))
            }
            running = try await start(probe)
        } catch {
            writeEnd.close()
            throw error
        }
        started(running)
        let input = try AsyncSocket(writeEnd, reactor: reactor)
        let event = await withTaskGroup(of: DeliveryEvent.self) { group in
            group.addTask {
                do {
                    try await input.write(payload, deadline: deadline)
                    try await reactor.wait(for: writeEnd, writable: true, deadline: deadline)
                    return .emptied
                } catch {
                    return .stalled
                }
            }
            group.addTask {
                (try? await reactor.wait(for: running.exitDescriptor, deadline: deadline)) == nil ? .stalled : .exited
            }
            let first = await group.next() ?? .stalled
            group.cancelAll()
            return first
        }
        input.close()
        let unread = linkd_readable_bytes(probe.rawValue)
        if event != .stalled && unread == 0 { return running }
        var status = await running.exitStatusIfExited()
        if status == nil && event == .exited {
            status = try? await running.exitStatus(deadline: .now + .seconds(2), reactor: reactor)
        }
        if status == nil {
            // At the deadline: SIGTERM, then SIGKILL after the grace period. When the wait was cancelled (the daemon
            // is stopping at once), SIGKILL straight away.
            _ = await running.terminate(grace: Task.isCancelled ? .zero : terminationGrace, reactor: reactor)
        }
        running.closeDescriptors(reactor: reactor)
        throw status.map { DeliveryFailure.exitedBeforeReading(status: $0) } ?? .stalled
    }
}
