import Glibc

/// Which file an open descriptor or a path is (device and inode), and how large it is: what tells a process whether
/// its standard error is a given file.
package struct FileIdentity: Sendable, Equatable {
    /// `st_dev`.
    package var device: UInt64
    /// `st_ino`.
    package var inode: UInt64
    /// `st_size`, in bytes; not part of the identity.
    package var size: Int

    /// Whether `other` is the same file (device and inode), whatever their sizes.
    package func isSameFile(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode
    }

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int(status.st_size)
    }

    /// The regular file at `path`, not following a final link (`lstat(2)`); `nil` when there is none, or it is not a
    /// regular file.
    package static func of(path: String) -> FileIdentity? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(status)
    }

    /// The file `descriptor` refers to (`fstat(2)`); `nil` when it is closed or not a regular file.
    package static func of(_ descriptor: FileDescriptor) -> FileIdentity? {
        var status = stat()
        guard fstat(descriptor.rawValue, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(status)
    }
}

extension FileDescriptor {
    /// Makes this descriptor refer to the file `other` refers to (`dup2(2)`, EINTR retried); a write on another thread
    /// goes wholly to the old file or wholly to the new one. `other` stays open.
    ///
    /// - Returns: whether it did.
    package func redirect(to other: FileDescriptor) -> Bool {
        if case .success = retryingOnInterrupt({ dup2(other.rawValue, rawValue) }) { return true }
        return false
    }
}

extension FileSystem {
    /// Opens the file `path` for appending, creating it with mode 0600; refuses a symbolic link (`O_NOFOLLOW`);
    /// close-on-exec.
    ///
    /// - Throws: ``SystemError/file(operation:path:errno:)`` naming the file.
    package static func openPrivateForAppending(_ path: String) throws(SystemError) -> FileDescriptor {
        let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW
        switch retryingOnInterrupt({ open(path, flags, 0o600) }) {
        case .success(let fd): return FileDescriptor(rawValue: fd)
        case .failure(let error): throw .file(operation: "open", path: path, errno: error)
        }
    }
}
