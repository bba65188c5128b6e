import CSystemd
import Glibc

/// Changes in a set of folders, through inotify(7) and the ``Reactor``: a file created, written, moved or removed in
/// one of them, or one of them appearing or going. Folders that do not exist yet are watched through their nearest
/// existing parent, so that their creation is a change too; after each change the watches are set up again.
package final class FolderWatch: Sendable {
    private let descriptor: FileDescriptor
    private let folders: [String]
    private let reactor: Reactor

    /// Watches `folders`.
    ///
    /// - Throws: ``SystemError/systemCall(operation:errno:)`` when inotify is not available.
    package init(_ folders: [String], reactor: Reactor = .shared) throws(SystemError) {
        let fd = linkd_inotify_create()
        guard fd >= 0 else { throw .systemCall(operation: "create an inotify instance", errno: Errno(rawValue: -fd)) }
        descriptor = FileDescriptor(rawValue: fd)
        self.folders = folders
        self.reactor = reactor
        addWatches()
    }

    deinit {
        reactor.forget(descriptor)
        descriptor.close()
    }

    /// Waits for the next change, then for a quiet `settle` (a burst of writes is one change), and sets the watches
    /// up again.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    package func nextChange(settle: Duration = .milliseconds(100)) async throws {
        try await reactor.wait(for: descriptor)
        drain()
        while true {
            do {
                try await reactor.wait(for: descriptor, deadline: .now + settle)
                drain()
            } catch ReactorError.timedOut {
                break
            }
        }
        addWatches()
    }

    private func drain() {
        // Until it would block (nothing more is queued) or fails: the events themselves are not read.
        while case .success(let events) = descriptor.readSome(capacity: 16_384), !events.isEmpty {}
    }

    /// Watches each folder, or for one that does not exist its nearest existing parent. Adding a watch on a folder
    /// already watched only refreshes it.
    private func addWatches() {
        for folder in folders {
            var path = folder
            while !path.isEmpty, linkd_inotify_watch_folder(descriptor.rawValue, path) < 0 {
                guard let slash = path.lastIndex(of: "/") else { break }
                path = slash == path.startIndex ? (path == "/" ? "" : "/") : String(path[..<slash])
            }
        }
    }
}
