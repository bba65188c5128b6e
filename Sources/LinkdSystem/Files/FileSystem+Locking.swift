import Glibc

extension FileSystem {
    /// Runs `body` while holding an exclusive lock on the file at `path` (`flock(2)`; the file is created 0600 when
    /// missing): another process that asks for the same lock waits until `body` has returned.
    ///
    /// - Throws: ``SystemError/file(operation:path:errno:)`` when the file cannot be opened or locked.
    package static func withExclusiveLock<Result>(
        _ path: String,
        _ body: () throws(SystemError) -> Result
    ) throws(SystemError) -> Result {
        let fd: Int32
        switch retryingOnInterrupt({ open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }) {
        case .success(let value): fd = value
        case .failure(let error): throw .file(operation: "open the lock", path: path, errno: error)
        }
        defer { Glibc.close(fd) }  // closing releases the lock
        if case .failure(let error) = retryingOnInterrupt({ flock(fd, LOCK_EX) }) {
            throw .file(operation: "lock", path: path, errno: error)
        }
        return try body()
    }
}
