import Glibc

extension FileSystem {
    /// Opens `path` for writing from its start: it is created with `mode` (0600 by default) when missing and emptied
    /// (`O_TRUNC`) when it exists; close-on-exec. Use it to hand a child a fresh file as an output stream.
    ///
    /// - Throws: ``SystemError/file(operation:path:errno:)`` naming the file; nothing is left open then.
    package static func openForWriting(_ path: String, mode: UInt32 = 0o600) throws(SystemError) -> FileDescriptor {
        switch retryingOnInterrupt({ open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode) }) {
        case .success(let fd): return FileDescriptor(rawValue: fd)
        case .failure(let error): throw .file(operation: "open for writing", path: path, errno: error)
        }
    }
}
