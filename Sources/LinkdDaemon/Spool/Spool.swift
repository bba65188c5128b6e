import FoundationEssentials
package import LinkdSystem

/// Accepted links that have not finished their action: one 0600 file per link in a 0700 folder, named by a random
/// id (never by anything in the link), written before the link is acknowledged and removed when its action finishes.
/// It holds at most ``capacity`` links; a link beyond them is refused before it is acknowledged.
package struct Spool: Sendable {
    /// How many links the spool holds at most.
    package static let capacity = 10_000

    /// The folder.
    package let directory: String
    /// Why the folder could not be made private when the spool was opened (it is missing, or on a read-only file
    /// system); `nil` when it could. Links are refused then, one by one, until it can be written.
    package let problem: SystemError?
    /// How many entries the folder holds: counted once when the spool is opened, then kept by ``add(url:kind:)``
    /// and ``remove(_:)``, so that the cap costs no listing of the folder.
    private let count: Counter

    /// A spool in `directory`, created 0700 when missing. A folder that cannot be created or made private is no
    /// failure here (a daemon that cannot spool still routes, and refuses links with a reason): it is
    /// ``problem``. Temporary files of writes that a daemon killed midway left behind are removed.
    ///
    /// Only one daemon opens a spool at a time (it holds the start lock, or systemd's socket).
    package init(directory: String) {
        self.directory = directory
        var problem: SystemError?
        do {
            try FileSystem.makePrivateDirectory(directory)
        } catch {
            problem = error
        }
        self.problem = problem
        var entries = 0
        for name in FileSystem.names(in: directory) {
            if name.hasPrefix(".") {
                FileSystem.remove(directory + "/" + name)
            } else if name.hasSuffix(".json") {
                entries += 1
            }
        }
        count = Counter(entries)
    }

    /// How many entries the spool holds.
    package var entryCount: Int { count.value }

    /// Writes a new entry for `url` and returns it; a spool folder that went away is made again.
    ///
    /// - Throws: ``Failure/full(capacity:)`` when the spool holds ``capacity`` entries, or the file system's error
    ///   as a ``Failure``; nothing is recorded then.
    package func add(url: String, kind: Entry.Kind) throws(Failure) -> Entry {
        guard count.reserve(below: Self.capacity) else { throw .full(capacity: Self.capacity) }
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }
            .map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
        let entry = Entry(id: id, url: url, attempts: 1, accepted: Date().timeIntervalSince1970, kind: kind)
        do {
            try writeNew(entry)
        } catch {
            count.release()
            throw Failure(error, folder: directory)
        }
        return entry
    }

    /// Writes a new entry; when the folder went away (removed by hand, or never made), it is made again and the
    /// entry written once more.
    private func writeNew(_ entry: Entry) throws(SystemError) {
        do {
            try write(entry)
        } catch  where error.errno == .noEntry {
            try FileSystem.makePrivateDirectory(directory)
            try write(entry)
        }
    }

    /// Rewrites `entry` atomically: a temporary file, 0600 from the start, renamed over it.
    ///
    /// - Throws: the file system's error (ENOSPC when the disk is full); the entry's earlier file, if any, stays as
    ///   it was.
    package func write(_ entry: Entry) throws(SystemError) {
        try FileSystem.writeAtomically(Self.contents(of: entry), to: path(of: entry.id))
    }

    /// What the file of `entry` holds: the entry as JSON, which ``entry(inContents:id:)`` reads back.
    package static func contents(of entry: Entry) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(entry))
        } catch {
            preconditionFailure("an entry of strings and numbers always encodes")
        }
    }

    /// The entry in the `bytes` of the file named `id` (`<id>.json`); `nil` when they reach 1 MiB, are no JSON
    /// entry, or name another id (a copied or forged file: its actions would write and remove another file, or one
    /// outside the folder).
    package static func entry(inContents bytes: [UInt8], id: String) -> Entry? {
        guard bytes.count < 1 << 20, let entry = try? JSONDecoder().decode(Entry.self, from: Data(bytes)),
            entry.id == id
        else { return nil }
        return entry
    }

    /// Removes the entry `id` (its action finished, or it can never run); an entry already gone is no error.
    ///
    /// - Returns: whether a file was removed.
    @discardableResult
    package func remove(_ id: String) -> Bool {
        guard FileSystem.remove(path(of: id)) else { return false }
        count.release()
        return true
    }

    /// Every entry, oldest first; unreadable files are returned as ids to remove. A file is unreadable when it is
    /// no JSON entry, is over 1 MiB, is no regular file, or names another id than its file name does (a copied or
    /// forged file: its actions would write and remove another file, or one outside the folder).
    package func entries() -> (entries: [Entry], broken: [String]) {
        var entries: [Entry] = []
        var broken: [String] = []
        for name in FileSystem.names(in: directory) where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let id = String(name.dropLast(5))
            if let bytes = FileSystem.contents(of: directory + "/" + name, limit: 1 << 20),
                let entry = Self.entry(inContents: bytes, id: id)
            {
                entries.append(entry)
            } else {
                broken.append(id)
            }
        }
        return (entries.sorted { $0.accepted < $1.accepted }, broken)
    }

    private func path(of id: String) -> String { directory + "/" + id + ".json" }
}

extension Spool {
    /// The number of entries, shared by the copies of a spool.
    private final class Counter: Sendable {
        private let state: Lock<Int>

        init(_ value: Int) {
            state = Lock(value)
        }

        var value: Int { state.withLock { $0 } }

        /// Counts one more entry when there are fewer than `limit`; `false` (nothing counted) otherwise.
        func reserve(below limit: Int) -> Bool {
            state.withLock { count in
                guard count < limit else { return false }
                count += 1
                return true
            }
        }

        func release() {
            state.withLock { $0 = max(0, $0 - 1) }
        }
    }
}
