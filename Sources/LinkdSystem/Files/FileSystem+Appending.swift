import Glibc

extension FileSystem {
    /// Adds `bytes` at the end of the file at `path` in one `write(2)` (`O_APPEND`), creating it with `mode` when
    /// missing; a symbolic link there is refused (`O_NOFOLLOW`). For a short record under the caller's lock.
    ///
    /// - Throws: ``SystemError/file(operation:path:errno:)`` naming the file, also for a write cut short (`EIO`).
    package static func append(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o600) throws(SystemError) {
        let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW
        let descriptor: Int32
        switch retryingOnInterrupt({ open(path, flags, mode) }) {
        case .success(let value): descriptor = value
        case .failure(let error): throw .file(operation: "open", path: path, errno: error)
        }
        defer { close(descriptor) }
        let written = retryingOnInterrupt { bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } }
        switch written {
        case .success(let count) where count == bytes.count: return
        case .success: throw .file(operation: "write", path: path, errno: Errno(rawValue: EIO))
        case .failure(let error): throw .file(operation: "write", path: path, errno: error)
        }
    }
}
