import LinkdSystem

extension Registrar {
    /// Registers `schemes` (validated first, all or none) for `executable`: adds them to linkd's desktop file, makes
    /// it their default in ``mimeApps`` and runs `update-desktop-database`. A default it replaces is remembered in
    /// ``replacedDefaults`` (before the list is written) and named in the outcome. Every other line stays as it was.
    ///
    /// - Throws: ``Problem`` for a scheme linkd never registers, or a file it cannot read or write.
    package func register(_ schemes: [String], executable: String) throws(Problem) -> Outcome {
        guard Self.isWritablePath(executable) else {
            throw Problem(
                description: "linkd's path has a line break, which a desktop entry's Exec= line cannot hold; "
                    + "install linkd at a path without one"
            )
        }
        var validated: [String] = []
        for scheme in schemes {
            let lowered = try Self.validate(scheme)
            if !validated.contains(lowered) { validated.append(lowered) }
        }
        let existing = try read(desktopFile)
        let entry = DesktopEntry(
            executable: executable,
            schemes: Set(existing.map(DesktopEntry.schemes(in:)) ?? []).union(validated)
        )
        let listText = try read(mimeApps)
        var list = MimeAppsList(listText)
        let remembered = try readReplacedDefaults()
        var defaults = remembered
        var others: [String: String] = [:]
        for scheme in validated {
            let key = Self.key(of: scheme)
            if let line = list.line(key, in: MimeAppsList.defaults), Self.desktopIDs(in: line) != [DesktopEntry.id] {
                defaults.lines[scheme] = line
                let ids = Self.desktopIDs(in: line)
                if !ids.isEmpty { others[scheme] = ids.joined(separator: ";") }
            }
            list.set(key, DesktopEntry.id, in: MimeAppsList.defaults)
        }
        if defaults != remembered { try writeReplacedDefaults(defaults) }
        var changed = false
        if existing != entry.text {
            try write(entry.text, to: desktopFile)
            changed = true
        }
        if list.text != (listText ?? "") {
            try write(list.text, to: mimeApps)
            changed = true
        }
        if changed { updateDesktopDatabase() }
        return Outcome(action: .register, schemes: validated, others: others, changed: changed)
    }

    /// Unregisters `schemes`, or when `nil` every scheme linkd has registered (``registeredSchemes()``).
    ///
    /// Where linkd's default is still the default, the line it replaced is put back exactly as it was, else the line
    /// goes; linkd leaves `[Added Associations]`, and its desktop file loses the schemes (and goes when none is left).
    /// A default someone set since is left as it is. Every entry that is not linkd's stays as it was; a list left
    /// with nothing but section headers is removed, unless it is a symbolic link.
    ///
    /// - Throws: ``Problem`` for a file linkd cannot read or write.
    package func unregister(_ schemes: [String]? = nil) throws(Problem) -> Outcome {
        let listText = try read(mimeApps)
        var list = MimeAppsList(listText)
        let remembered = try readReplacedDefaults()
        var defaults = remembered
        let existing = try read(desktopFile)
        let declared = existing.map(DesktopEntry.schemes(in:)) ?? []
        var targets: [String] = []
        for scheme in schemes?.map({ $0.lowercased() }) ?? registeredSchemes(declared, defaults, list)
        where !targets.contains(scheme) {
            targets.append(scheme)
        }
        var others: [String: String] = [:]
        for scheme in targets {
            let key = Self.key(of: scheme)
            let isLinkdsDefault =
                list.line(key, in: MimeAppsList.defaults).map(Self.desktopIDs(in:)) == [DesktopEntry.id]
            if isLinkdsDefault, let line = defaults.lines[scheme] {
                list.setLine(line, for: key, in: MimeAppsList.defaults)
                let ids = Self.desktopIDs(in: line)
                if !ids.isEmpty { others[scheme] = ids.joined(separator: ";") }
            } else {
                list.remove(DesktopEntry.id, from: key, in: MimeAppsList.defaults)
            }
            list.remove(DesktopEntry.id, from: key, in: MimeAppsList.added)
            defaults.lines[scheme] = nil
        }
        var changed = false
        if let listText, list.text != listText {
            // A list left with no entry goes, unless it is a link (to someone's dotfiles, say).
            if list.hasNoEntries, (try? FileSystem.resolvingLinks(mimeApps)) == mimeApps {
                FileSystem.remove(mimeApps)
            } else {
                try write(list.text, to: mimeApps)
            }
            changed = true
        }
        if defaults != remembered { try writeReplacedDefaults(defaults) }
        if let existing {
            let remaining = declared.filter { !targets.contains($0) }
            if remaining.isEmpty {
                FileSystem.remove(desktopFile)
                changed = true
            } else if remaining.count != declared.count {
                let executable = Self.executable(in: existing) ?? "linkd"
                try write(DesktopEntry(executable: executable, schemes: remaining).text, to: desktopFile)
                changed = true
            }
        }
        if changed { updateDesktopDatabase() }
        return Outcome(action: .unregister, schemes: targets, others: others, changed: changed)
    }

    /// Every scheme linkd has registered: those its desktop file declares, those whose replaced default it
    /// remembers, and those ``mimeApps`` gives to `linkd.desktop`; sorted.
    package func registeredSchemes() throws(Problem) -> [String] {
        let declared = try read(desktopFile).map(DesktopEntry.schemes(in:)) ?? []
        return registeredSchemes(declared, try readReplacedDefaults(), MimeAppsList(try read(mimeApps)))
    }

    private func registeredSchemes(
        _ declared: [String],
        _ defaults: ReplacedDefaults,
        _ list: MimeAppsList
    )
        -> [String]
    {
        var schemes = Set(declared).union(defaults.lines.keys)
        for section in [MimeAppsList.defaults, MimeAppsList.added] {
            for key in list.keys(in: section) where key.hasPrefix(Self.key(of: "")) {
                if let value = list.value(key, in: section),
                    MimeAppsList.desktopIDs(in: value).contains(DesktopEntry.id)
                {
                    schemes.insert(String(key.dropFirst(Self.key(of: "").count)))
                }
            }
        }
        return schemes.sorted()
    }

    /// Whether `path` can stand in an `Exec=` line: it holds no CR and no LF.
    package static func isWritablePath(_ path: String) -> Bool {
        !path.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
    }

    /// `x-scheme-handler/<scheme>`.
    static func key(of scheme: String) -> String { "x-scheme-handler/" + scheme }

    /// The desktop file ids of a `key=value` line.
    static func desktopIDs(in line: String) -> [String] {
        MimeAppsList.desktopIDs(
            in: String(line[(line.firstIndex(of: "=").map(line.index(after:)) ?? line.endIndex)...])
        )
    }
}
