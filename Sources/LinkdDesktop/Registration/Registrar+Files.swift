import FoundationEssentials
import LinkdSystem

extension Registrar {
    /// The text of `path`, `nil` when there is no such file (a link to nothing included).
    ///
    /// - Throws: ``Problem`` when it exists but cannot be read as UTF-8 text.
    func read(_ path: String) throws(Problem) -> String? {
        try Self.read(path)
    }

    /// The most a file linkd registers with may hold: larger, it is not one of these files.
    static let readLimit = 16 << 20

    /// ``read(_:)``, for a path that needs no registrar.
    static func read(_ path: String) throws(Problem) -> String? {
        guard FileSystem.permissions(of: path) != nil else { return nil }
        guard let bytes = FileSystem.contents(of: path, limit: Self.readLimit, followingLinks: true),
            bytes.count < Self.readLimit, let text = String(validating: bytes, as: UTF8.self)
        else { throw Problem(description: "cannot read '\(path)'") }
        return text
    }

    /// Writes `text` to `path` atomically. A symbolic link stays a link and its target is rewritten; a file that
    /// exists keeps its mode, a new one gets `mode`. Missing folders are made: 0700 when `isPrivate`, else 0755.
    ///
    /// - Throws: ``Problem`` naming the file that could not be written, and why.
    func write(_ text: String, to path: String, mode: UInt32 = 0o644, isPrivate: Bool = false) throws(Problem) {
        var target = path
        do throws(SystemError) {
            target = try FileSystem.resolvingLinks(path)
            let kept = FileSystem.permissions(of: target) ?? mode
            let folder = String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)])
            if FileSystem.permissions(of: folder) == nil {
                if isPrivate {
                    try FileSystem.makePrivateDirectory(folder)
                } else {
                    try FileSystem.makeDirectories(folder)
                }
            }
            try FileSystem.writeAtomically(Array(text.utf8), to: target, mode: kept)
            try FileSystem.setPermissions(kept, of: target)
        } catch {
            throw Problem(
                description: "cannot write '\(target)': \(error.errno)",
                isPermissionDenied: [.accessDenied, .notPermitted, .readOnlyFileSystem].contains(error.errno)
            )
        }
    }

    /// The defaults remembered in ``replacedDefaults``; none when the file is missing.
    ///
    /// - Throws: ``Problem`` when the file cannot be read or is not such a list.
    func readReplacedDefaults() throws(Problem) -> ReplacedDefaults {
        guard let text = try read(replacedDefaults) else { return ReplacedDefaults() }
        return try ReplacedDefaults(parsing: Array(text.utf8), path: replacedDefaults)
    }

    /// Writes `defaults` to ``replacedDefaults`` (0600, in a private folder), or removes the file when it is empty.
    ///
    /// - Throws: ``Problem`` when it cannot be written.
    func writeReplacedDefaults(_ defaults: ReplacedDefaults) throws(Problem) {
        if defaults.lines.isEmpty {
            FileSystem.remove(replacedDefaults)
        } else {
            try write(defaults.text, to: replacedDefaults, mode: 0o600, isPrivate: true)
        }
    }

    /// The command of an entry's `Exec=` line, before ` open %u`.
    static func executable(in text: String) -> String? {
        guard let line = DesktopEntry.firstLine(of: text, startingWith: "Exec=") else { return nil }
        let command = line.dropFirst("Exec=".count)
        guard let end = command.firstRange(of: " open ") else { return nil }
        return String(command[..<end.lowerBound])
    }

    /// Runs `update-desktop-database` on ``applications`` when both exist, so GIO's `mimeinfo.cache` sees the change.
    func updateDesktopDatabase() {
        guard FileSystem.permissions(of: applications) != nil else { return }
        let environment = ProcessInfo.processInfo.environment
        for tool in ["/usr/bin/update-desktop-database", "/bin/update-desktop-database"] {
            let status = try? Subprocess([tool, applications], environment: environment).run().status
            if status != 127 { return }
        }
    }
}
