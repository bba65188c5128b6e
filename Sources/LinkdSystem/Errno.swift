import Glibc

/// An error number a system call set (`errno(3)`), named by its `strerror(3)` text.
package struct Errno: RawRepresentable, Error, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: CInt

    package init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The calling thread's `errno`; read it right after the failed call.
    package static var current: Errno { Errno(rawValue: errno) }

    package static let interrupted = Errno(rawValue: EINTR)
    package static let wouldBlock = Errno(rawValue: EAGAIN)
    package static let noEntry = Errno(rawValue: ENOENT)
    package static let exists = Errno(rawValue: EEXIST)
    package static let connectionReset = Errno(rawValue: ECONNRESET)
    package static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    package static let brokenPipe = Errno(rawValue: EPIPE)
    package static let noSpace = Errno(rawValue: ENOSPC)
    package static let quotaExceeded = Errno(rawValue: EDQUOT)
    package static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    package static let tooManyLinks = Errno(rawValue: ELOOP)
    package static let timedOut = Errno(rawValue: ETIMEDOUT)
    package static let accessDenied = Errno(rawValue: EACCES)
    package static let notPermitted = Errno(rawValue: EPERM)
    package static let readOnlyFileSystem = Errno(rawValue: EROFS)

    /// `strerror(3)` for the number.
    package var description: String { String(cString: strerror(rawValue)) }
}

/// Calls `body`, a system call that returns -1 and sets `errno` on failure, until it is not interrupted.
///
/// EINTR is retried; EBADF and EFAULT stop the process, since they mean linkd passed a closed descriptor or a bad
/// pointer (a bug, never input); every other failure is returned as its ``Errno``.
///
/// - Returns: what `body` returned, or the error.
@inline(__always)
package func retryingOnInterrupt<Value: FixedWidthInteger>(_ body: () -> Value) -> Result<Value, Errno> {
    while true {
        let value = body()
        if value != -1 { return .success(value) }
        let code = errno
        if code == EINTR { continue }
        precondition(code != EBADF && code != EFAULT, "a system call was given a bad descriptor or address")
        return .failure(Errno(rawValue: code))
    }
}
