import Glibc

/// What `stat(2)` says of a file: its kind, size, owner and permission bits.
package struct FileStatus: Sendable, Equatable {
    /// What kind of file it is.
    package enum Kind: Sendable, Equatable {
        case regular
        case directory
        case symbolicLink
        /// A FIFO, socket or device.
        case other
    }

    package var kind: Kind
    /// `st_size`, in bytes.
    package var size: Int64
    /// `st_uid`.
    package var owner: UInt32
    /// The permission bits of `st_mode` (`0o7777`: setuid, setgid, sticky, then owner, group, others).
    package var permissions: UInt32

    init(_ status: stat) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int64(status.st_size)
        owner = status.st_uid
        permissions = UInt32(status.st_mode) & 0o7777
    }
}

extension FileSystem {
    /// The status of the file at `path` (`stat(2)`, or `lstat(2)` when not `followingLinks`, which reports a final
    /// symbolic link itself).
    package static func status(of path: String, followingLinks: Bool = true) -> Result<FileStatus, Errno> {
        var status = stat()
        let result = followingLinks ? stat(path, &status) : lstat(path, &status)
        guard result == 0 else { return .failure(.current) }
        return .success(FileStatus(status))
    }
}
