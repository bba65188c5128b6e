package import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
package import LinkdSystem

/// The hosts whose `https` links an app of apps.d may take — a host of one of its links' patterns, or of one of its
/// backends' emailed links — kept in `$XDG_CACHE_HOME/linkd/web-claims` with the stamps (``FileStamp``) of the apps.d
/// folders and files they were read from, so that a click on a link of any other host goes to the browser without
/// reading apps.d. When a stamp differs (a file added, removed, written, or its permissions changed), the click reads
/// apps.d and the index is made anew.
///
/// The index can only ever send a link to the browser: a link of a host it lists is decided from apps.d itself. It
/// names the hosts of apps.d, never a clicked link.
package struct WebClaimIndex: Equatable {
    /// A folder or file the index was read from, and its stamp then (`nil`: it was not there).
    package struct Source: Equatable {
        package let path: String
        package let stamp: FileStamp?

        package init(path: String, stamp: FileStamp?) {
            self.path = path
            self.stamp = stamp
        }
    }

    /// The apps.d folders, then the `*.json` files in them, in order.
    package var sources: [Source]
    /// The hosts an app may take links of.
    package var hosts: Set<String>

    private static let header = "linkd web-claims 1"

    /// The folders `directories` and their `*.json` files, stamped now: taken before apps.d is read, so that a change
    /// while it is read shows as a stamp that differs.
    package static func sources(of directories: [String]) -> [Source] {
        var sources: [Source] = []
        var files: [Source] = []
        for directory in directories {
            let stamp = FileStamp(of: directory)
            sources.append(Source(path: directory, stamp: stamp))
            guard stamp != nil else { continue }
            for name in FileSystem.names(in: directory).sorted() where name.hasSuffix(".json") {
                let path = directory + "/" + name
                files.append(Source(path: path, stamp: FileStamp(of: path)))
            }
        }
        return sources + files
    }

    /// The index of `apps`, as read from `sources`.
    package init(sources: [Source], apps: [AppConfig]) {
        self.sources = sources
        var hosts: Set<String> = []
        for app in apps {
            for link in app.links where link.match.scheme == "https" { hosts.insert(link.match.host) }
            for backend in ([app.backend] + app.links.map(\.backend)).compactMap({ $0 })
            where backend.backendType.emailedLinkPath != nil && backend.url.scheme == "https" {
                hosts.insert(backend.url.hostname)
            }
        }
        self.hosts = hosts
    }

    package init(sources: [Source], hosts: Set<String>) {
        self.sources = sources
        self.hosts = hosts
    }

    /// Whether every source still has the stamp it had.
    package var isCurrent: Bool {
        sources.allSatisfy { FileStamp(of: $0.path) == $0.stamp }
    }

    /// The index at `path` when it reads and is current; `nil` otherwise.
    package static func current(at path: String) -> WebClaimIndex? {
        guard let bytes = FileSystem.contents(of: path, limit: 1 << 20),
            let index = WebClaimIndex(parsing: String(decoding: bytes, as: UTF8.self)), index.isCurrent
        else { return nil }
        return index
    }

    /// Writes the index to `path` (its folder made, 0700), unless a source changed within
    /// ``FileStamp/settlingSeconds`` of `now` (its stamp would not tell a change in the same tick of the clock) or a
    /// path holds a line break: then there is no index, and each click reads apps.d.
    package func write(to path: String, now: Int64) throws(SystemError) {
        guard sources.allSatisfy({ $0.stamp?.isSettled(at: now) ?? true && !$0.path.contains("\n") }) else {
            _ = FileSystem.remove(path)
            return
        }
        if let slash = path.lastIndex(of: "/") {
            try FileSystem.makeDirectories(String(path[..<slash]), mode: 0o700)
        }
        try FileSystem.writeAtomically(Array(text.utf8), to: path)
    }

    /// The file's text: the header, a `source` line per source (`-` for one that was not there, else device, inode,
    /// mode, size, modified, changed; the path last, as it may hold spaces), a `host` line per host.
    package var text: String {
        var text = Self.header + "\n"
        for source in sources {
            if let stamp = source.stamp {
                text += "source \(stamp.device) \(stamp.inode) \(stamp.mode) \(stamp.size) \(stamp.modified) "
                text += "\(stamp.changed) "
            } else {
                text += "source - "
            }
            text += source.path + "\n"
        }
        for host in hosts.sorted() { text += "host \(host)\n" }
        return text
    }

    /// Reads ``text``; `nil` for anything else.
    package init?(parsing text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(Self.header), lines.last == "" else { return nil }
        lines.removeFirst()
        lines.removeLast()
        var sources: [Source] = []
        var hosts: Set<String> = []
        for line in lines {
            if line.hasPrefix("host "), !line.dropFirst(5).isEmpty, !line.dropFirst(5).contains(" ") {
                hosts.insert(String(line.dropFirst(5)))
            } else if line.hasPrefix("source - ") {
                sources.append(Source(path: String(line.dropFirst(9)), stamp: nil))
            } else if line.hasPrefix("source ") {
                let fields = line.dropFirst(7).split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
                guard fields.count == 7, let device = UInt64(fields[0]), let inode = UInt64(fields[1]),
                    let mode = UInt32(fields[2]), let size = Int64(fields[3]), let modified = Int64(fields[4]),
                    let changed = Int64(fields[5]), !fields[6].isEmpty
                else { return nil }
                let stamp = FileStamp(
                    device: device,
                    inode: inode,
                    mode: mode,
                    size: size,
                    modified: modified,
                    changed: changed
                )
                sources.append(Source(path: String(fields[6]), stamp: stamp))
            } else {
                return nil
            }
        }
        guard !sources.isEmpty else { return nil }
        self.init(sources: sources, hosts: hosts)
    }
}
