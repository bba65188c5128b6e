import Glibc

/// An open file descriptor. It does not close itself: the owner calls ``close()`` once.
package struct FileDescriptor: RawRepresentable, Sendable, Hashable {
    package let rawValue: CInt

    package init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// Closes the descriptor (`close(2)`); EINTR is not retried, as Linux has already released the descriptor.
    ///
    /// - Returns: the error `close(2)` reported (`EIO`: data written earlier may not have reached the disk), `nil`
    ///   when it closed cleanly. The descriptor is released either way, so the caller never closes it again.
    @discardableResult
    package func close() -> Errno? {
        Glibc.close(rawValue) == 0 ? nil : .current
    }

    /// Sets `O_NONBLOCK` and `FD_CLOEXEC`.
    ///
    /// - Throws: ``SystemError/systemCall(operation:errno:)``.
    package func makeNonBlockingAndCloseOnExec() throws(SystemError) {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0, fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) == 0,
            fcntl(rawValue, F_SETFD, FD_CLOEXEC) == 0
        else { throw .systemCall(operation: "set descriptor flags", errno: .current) }
    }
}

extension FileDescriptor {
    /// The process's standard output.
    package static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    /// The process's standard error.
    package static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// Writes all of `text` (`write(2)`, retried on EINTR and short writes); errors are dropped, as for a log line.
    package func writeAll(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count,
            case .success(let count) = retryingOnInterrupt({
                bytes[offset...].withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress, $0.count) }
            }),
            count > 0
        {
            offset += count
        }
    }
}

extension FileDescriptor {
    /// Ends reading on a connected socket (`shutdown(2)` with `SHUT_RD`): what the peer already sent can still be
    /// read, then reads see the end of the stream, and a wait for input wakes. Errors (not a socket, not
    /// connected) are ignored: the descriptor is then left as it was.
    package func shutDownReading() {
        _ = shutdown(rawValue, Int32(SHUT_RD))
    }
}
