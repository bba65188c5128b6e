import CSystemd
import Glibc

/// Changes in a set of folders, through inotify(7) and the ``Reactor``: a file created, written, moved or removed in
/// one of them, or one of them appearing or going. Folders that do not exist yet are watched through their nearest
/// existing parent, so that their creation is a change too; after each change the watches are set up again.
///
/// When no inotify instance can be had (a user has 128 by default, and a desktop of editors and file managers can
/// take them all), the folders are compared every ``pollInterval`` instead: each file's name, size and time of last
/// change.
package final class FolderWatch: Sendable {
    /// The inotify instance; `nil` when none could be had, and the folders are compared instead.
    private let descriptor: FileDescriptor?
    private let folders: [String]
    private let reactor: Reactor
    /// Why the folders are compared rather than watched; `nil` when they are watched.
    package let pollingReason: SystemError?

    /// How often the folders are compared when they cannot be watched.
    package static let pollInterval = Duration.seconds(2)

    /// Watches `folders`, through inotify unless `polling` (or no instance can be had).
    package init(_ folders: [String], reactor: Reactor = .shared, polling: Bool = false) {
        let fd = polling ? -Int32(EMFILE) : linkd_inotify_create()
        descriptor = fd >= 0 ? FileDescriptor(rawValue: fd) : nil
        pollingReason =
            fd >= 0 ? nil : .systemCall(operation: "create an inotify instance", errno: Errno(rawValue: -fd))
        self.folders = folders
        self.reactor = reactor
        addWatches()
    }

    deinit {
        guard let descriptor else { return }
        reactor.forget(descriptor)
        descriptor.close()
    }

    /// Waits for the next change, then for a quiet `settle` (a burst of writes is one change), and sets the watches
    /// up again.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    package func nextChange(settle: Duration = .milliseconds(100)) async throws {
        guard let descriptor else { return try await nextDifference() }
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
        while let descriptor, case .success(let events) = descriptor.readSome(capacity: 16_384), !events.isEmpty {}
    }

    /// Compares the folders every ``pollInterval`` until they differ from what they were when it was called.
    private func nextDifference() async throws {
        let before = Self.snapshot(of: folders)
        repeat { try await Task.sleep(for: Self.pollInterval) } while Self.snapshot(of: folders) == before
    }

    /// Each folder's files, with their size and time of last change (`stat(2)`); a folder that is not there, none.
    static func snapshot(of folders: [String]) -> [String] {
        folders.flatMap { folder in
            FileSystem.names(in: folder).sorted().map { name -> String in
                var status = stat()
                guard stat(folder + "/" + name, &status) == 0 else { return folder + "/" + name }
                let changed = "\(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec) \(status.st_mtim.tv_nsec)"
                return "\(folder)/\(name) \(status.st_size) \(status.st_mtim.tv_sec) \(changed)"
            }
        }
    }

    /// Watches each folder, or for one that does not exist its nearest existing parent. Adding a watch on a folder
    /// already watched only refreshes it.
    private func addWatches() {
        guard let descriptor else { return }
        for folder in folders {
            var path = folder
            while !path.isEmpty, linkd_inotify_watch_folder(descriptor.rawValue, path) < 0 {
                guard let slash = path.lastIndex(of: "/") else { break }
                path = slash == path.startIndex ? (path == "/" ? "" : "/") : String(path[..<slash])
            }
        }
    }
}
