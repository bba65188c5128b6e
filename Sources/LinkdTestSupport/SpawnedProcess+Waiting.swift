import Glibc
import LinkdSystem

extension SpawnedProcess {
    /// Waits until `descriptor` has something to read (or its end), the child exits, or `timeout` passes: one
    /// `poll(2)` on `descriptor` and the child's exit descriptor, retried on EINTR with the time that is left.
    ///
    /// - Parameter what: what the wait is for, for the error.
    /// - Throws: ``HarnessError/exitedEarly(program:status:)`` when the child exited first (it is reaped then),
    ///   ``HarnessError/timedOut(waitingFor:after:)`` at the timeout.
    package func waitForInput(on descriptor: Int32, for what: String, timeout: Duration) throws(HarnessError) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: running.exitDescriptor.rawValue, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let left = clock.now.duration(to: deadline)
            let milliseconds = max(
                0,
                left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000
            )
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(clamping: milliseconds))
            if ready < 0 && errno == EINTR { continue }
            if descriptors[0].revents != 0 { return }
            if descriptors[1].revents != 0 {
                waitUntilExit()
                throw .exitedEarly(program: program, status: terminationStatus)
            }
            throw .timedOut(waitingFor: what, after: timeout)
        }
    }

    /// Reads one line the child writes to its standard output, which must be a ``Subprocess/Stream/pipe``.
    ///
    /// - Returns: the line without its LF.
    /// - Throws: ``HarnessError/timedOut(waitingFor:after:)`` when no line comes within `timeout`,
    ///   ``HarnessError/exitedEarly(program:status:)`` when the child exits or closes its output first.
    package func readOutputLine(for what: String, timeout: Duration) throws(HarnessError) -> String {
        guard let output = running.output else { preconditionFailure("the child's output is not a pipe") }
        try waitForInput(on: output.rawValue, for: what, timeout: timeout)
        guard let line = output.readLine() else {
            waitUntilExit()
            throw .exitedEarly(program: program, status: terminationStatus)
        }
        return String(decoding: line, as: UTF8.self)
    }
}

extension SpawnedProcess {
    /// Waits until the child exits, asking `check` every `interval` meanwhile whether to stop waiting: when it gives
    /// a reason, the child is killed (SIGKILL) and reaped, and the reason returned.
    ///
    /// - Returns: nil when the child exited by itself; else the reason `check` gave.
    package func waitUntilExit(every interval: Duration, stoppingWhen check: () -> String?) -> String? {
        let milliseconds = Int32(clamping: interval.components.seconds * 1_000)
        var descriptor = pollfd(fd: running.exitDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if descriptor.revents != 0 { break }
            if let reason = check() {
                running.send(SIGKILL)
                waitUntilExit()
                return reason
            }
        }
        waitUntilExit()
        return nil
    }
}
