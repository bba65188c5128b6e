import FoundationEssentials
package import LinkdSystem

/// Accepted links that have not finished their action: one 0600 file per link in a 0700 folder, named by a random
/// id (never by anything in the link), written before the link is acknowledged and removed when its action finishes.
package struct Spool: Sendable {
    /// The folder.
    package let directory: String

    /// A spool in `directory`, created 0700 when missing.
    ///
    /// - Throws: ``SystemdError`` when the folder cannot be created.
    package init(directory: String) throws(SystemdError) {
        self.directory = directory
        try FileSystem.makePrivateDirectory(directory)
    }

    /// Writes a new entry for `url` and returns it.
    ///
    /// - Throws: the file system's error; nothing is recorded then.
    package func add(url: String, kind: Entry.Kind) throws -> Entry {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }
            .map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
        let entry = Entry(id: id, url: url, attempts: 1, accepted: Date().timeIntervalSince1970, kind: kind)
        try write(entry)
        return entry
    }

    /// Rewrites `entry` atomically: a temporary file, 0600 from the start, renamed over it.
    ///
    /// - Throws: the file system's error (ENOSPC when the disk is full); the entry's earlier file, if any, stays as
    ///   it was.
    package func write(_ entry: Entry) throws {
        try FileSystem.writeAtomically(Array(try JSONEncoder().encode(entry)), to: path(of: entry.id))
    }

    /// Removes the entry `id` (its action finished, or it can never run).
    package func remove(_ id: String) {
        FileSystem.remove(path(of: id))
    }

    /// Every entry, oldest first; unreadable files are returned as ids to remove.
    package func entries() -> (entries: [Entry], broken: [String]) {
        var entries: [Entry] = []
        var broken: [String] = []
        for name in FileSystem.names(in: directory) where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let id = String(name.dropLast(5))
            if let bytes = FileSystem.contents(of: directory + "/" + name, limit: 1 << 20),
                let entry = try? JSONDecoder().decode(Entry.self, from: Data(bytes))
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
