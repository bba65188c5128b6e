import Glibc

extension FileSystem {
    /// The permission bits of the file at `path`, following links (`stat(2)`); `nil` when there is none.
    package static func permissions(of path: String) -> UInt32? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return UInt32(status.st_mode & 0o7777)
    }

    /// Sets the permission bits of the file at `path` to exactly `mode` (`chmod(2)`), which the umask narrowed when it
    /// was created.
    ///
    /// - Throws: ``SystemError/file(operation:path:errno:)`` naming the file.
    package static func setPermissions(_ mode: UInt32, of path: String) throws(SystemError) {
        if case .failure(let error) = retryingOnInterrupt({ chmod(path, mode) }) {
            throw .file(operation: "set the mode of", path: path, errno: error)
        }
    }
}
