import Glibc

/// A `NOTIFY_SOCKET` of the test's own: a Unix datagram socket that a child given its ``path`` sends its
/// `sd_notify(3)` states to, so that a test waits for the child's `READY=1` instead of guessing when it is up.
///
/// The socket is closed and its file removed when the value goes; later notifications then fail, which `sd_notify`
/// callers ignore.
package final class NotifySocket: Sendable {
    /// The socket's path, the value for `NOTIFY_SOCKET`.
    package let path: String
    private let descriptor: Int32

    /// Binds the socket at `path`.
    ///
    /// - Throws: ``HarnessError/cannotListen(path:)`` when it cannot be bound (an existing file, a path too long).
    package init(path: String) throws(HarnessError) {
        guard let descriptor = DatagramListener.bind(at: path) else { throw .cannotListen(path: path) }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Waits until `process` sends a notification with the line `READY=1`, skipping other states.
    ///
    /// - Throws: ``HarnessError/exitedEarly(program:status:)`` when `process` exits first,
    ///   ``HarnessError/timedOut(waitingFor:after:)`` when `timeout` passes first.
    package func waitForReady(of process: SpawnedProcess, timeout: Duration) throws(HarnessError) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let left = max(.zero, clock.now.duration(to: deadline))
            do {
                try process.waitForInput(on: descriptor, for: "READY=1 from '\(process.program)'", timeout: left)
            } catch .timedOut {
                throw .timedOut(waitingFor: "READY=1 from '\(process.program)'", after: timeout)
            }
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { continue }
            if String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n").contains("READY=1") { return }
        }
    }
}
