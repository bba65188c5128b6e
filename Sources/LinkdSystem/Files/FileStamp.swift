import Glibc

/// What tells that a file or folder changed since it was last looked at: its device and inode (another file put in
/// its place), its mode, its size, and the times of its last write and last change of any kind (a folder's change
/// when a name in it is added, removed or renamed; a file's when it is written, or its owner or permissions change).
///
/// A file system stamps times at the granularity of its clock: two changes within one tick leave the same times, so a
/// stamp taken within ``settlingSeconds`` of the last change proves nothing (``isSettled(at:)``).
package struct FileStamp: Sendable, Equatable {
    package var device: UInt64
    package var inode: UInt64
    /// `st_mode`: the kind of file and its permissions.
    package var mode: UInt32
    package var size: Int64
    /// `st_mtim`, in nanoseconds since 1970.
    package var modified: Int64
    /// `st_ctim`, in nanoseconds since 1970.
    package var changed: Int64

    /// How long after its last change a stamp is taken for it to tell every later change.
    package static let settlingSeconds: Int64 = 2

    package init(device: UInt64, inode: UInt64, mode: UInt32, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.mode = mode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    /// The stamp of what `path` names (links followed); `nil` when nothing is there or it cannot be looked at.
    package init?(of path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        mode = UInt32(status.st_mode)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    }

    /// Whether the last change is at least ``settlingSeconds`` before `now` (seconds since 1970).
    package func isSettled(at now: Int64) -> Bool {
        max(modified, changed) / 1_000_000_000 + Self.settlingSeconds <= now
    }
}
