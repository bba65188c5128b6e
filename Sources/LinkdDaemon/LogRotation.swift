import LinkdSystem

/// Keeps linkd's log file small when the daemon's standard error is appended to it: before a line would take it past
/// ``limit`` the file becomes `linkd.log.1` (replacing the older one) and a new `linkd.log` (0600) takes its place on
/// fd 2 — and on fd 1 when that was the log too.
///
/// The daemon knows its log file by its identity: standard error is the file at the log's path (device and inode),
/// however the daemon was started — by `linkd open`, or by hand with `2>>…/linkd.log`. A daemon whose standard error
/// is the older file (another linkd rotated the log under it) moves to the new file with its next line.
final class LogRotation: Sendable {
    /// The size past which the log is rotated: 1 MiB.
    static let limit = 1 << 20

    /// The log's path.
    let path: String
    private let state: Lock<State>

    private struct State {
        /// What the current file holds, as far as this process knows.
        var size: Int
        var isRotating = false
    }

    /// The rotation of the log at `path`; `nil` when standard error is not that file (a terminal, the journal, a
    /// pipe, another file).
    init?(path: String) {
        guard let current = FileIdentity.of(.standardError) else { return nil }
        if let file = FileIdentity.of(path: path), file.isSameFile(as: current) {
            state = Lock(State(size: current.size))
        } else if let older = FileIdentity.of(path: path + ".1"), older.isSameFile(as: current) {
            state = Lock(State(size: Self.limit))  // rotated away under this process: its next line moves it along
        } else {
            return nil
        }
        self.path = path
    }

    /// Counts a line of `count` bytes about to be written to standard error, rotating the log first when the line
    /// would take it past the limit; so the file stays within the limit, unless one line alone is longer. One writer
    /// rotates; the others' lines go wholly to the old file or to the new one.
    func willWrite(_ count: Int) {
        let isDue = state.withLock { state in
            guard state.size > 0, state.size + count > Self.limit, !state.isRotating else {
                state.size += count
                return false
            }
            state.isRotating = true
            return true
        }
        guard isDue else { return }
        let size = rotate()
        state.withLock { state in
            state.size = size + count
            state.isRotating = false
        }
    }

    /// Moves the log to `linkd.log.1` — unless another process already did — and points standard error (and
    /// standard output, when it was the log too) at a new, empty log file. Returns the new file's size.
    private func rotate() -> Int {
        let current = FileIdentity.of(.standardError)
        if let current, let file = FileIdentity.of(path: path), file.isSameFile(as: current) {
            _ = FileSystem.rename(path, to: path + ".1")
        }
        guard let fresh = try? FileSystem.openPrivateForAppending(path) else {
            return 0  // the folder is gone or unwritable: tried again after another `limit` bytes
        }
        defer { fresh.close() }
        if let current, let output = FileIdentity.of(.standardOutput), output.isSameFile(as: current) {
            _ = FileDescriptor.standardOutput.redirect(to: fresh)
        }
        _ = FileDescriptor.standardError.redirect(to: fresh)
        return FileIdentity.of(.standardError)?.size ?? 0
    }
}
