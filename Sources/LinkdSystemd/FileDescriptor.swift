import Glibc

/// An open file descriptor. It does not close itself: the owner calls ``close()`` once.
public struct FileDescriptor: RawRepresentable, Sendable, Hashable {
    public let rawValue: CInt

    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// Closes the descriptor (`close(2)`); EINTR is not retried, as Linux has already released the descriptor.
    public func close() {
        _ = Glibc.close(rawValue)
    }

    /// Sets `O_NONBLOCK` and `FD_CLOEXEC`.
    ///
    /// - Throws: ``SystemdError/systemCall(operation:errno:)``.
    public func makeNonBlockingAndCloseOnExec() throws(SystemdError) {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0, fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) == 0,
            fcntl(rawValue, F_SETFD, FD_CLOEXEC) == 0
        else { throw .systemCall(operation: "set descriptor flags", errno: errno) }
    }
}
