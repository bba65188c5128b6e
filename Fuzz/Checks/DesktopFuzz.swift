import LinkdDesktop

extension FuzzTarget {
    /// The readers of desktop entries and `mimeapps.list` on any text: the schemes linkd reads from an entry it
    /// wrote are the ones it wrote, and its `Exec=` passes its own check; a list edited by linkd keeps every other
    /// line as it was, and reads back what was set.
    package static let desktop = FuzzTarget("desktop") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        _ = DesktopEntry.execProblem(in: text)
        let schemes = DesktopEntry.schemes(in: text).filter(isScheme).map { $0.lowercased() }
        // A path from the input's lines, as linkd would register it: one with a line break is refused by
        // `Registrar.register` (a desktop entry's line cannot hold it), so it never reaches an entry.
        let executable = text.unicodeScalars.split(separator: "\n").lazy.map { String(String.UnicodeScalarView($0)) }
            .first { $0.hasPrefix("/") && $0.count < 200 && Registrar.isWritablePath($0) }
        let entry = DesktopEntry(executable: executable ?? "/usr/bin/linkd", schemes: schemes)
        require(DesktopEntry.schemes(in: entry.text) == entry.schemes, "an entry reads back other schemes")
        require(DesktopEntry.execProblem(in: entry.text) == nil, "linkd's own Exec= fails its check")

        let list = MimeAppsList(text)
        require(MimeAppsList(list.text) == list, "a list reads back as another")
        if text.isEmpty || text.unicodeScalars.last == "\n" {
            require(list.text == text, "a list read and written changed")
        }
        let key = "x-scheme-handler/" + (schemes.first ?? "myapp")
        var edited = list
        edited.set(key, DesktopEntry.id, in: MimeAppsList.defaults)
        require(edited.value(key, in: MimeAppsList.defaults) == DesktopEntry.id, "a value set is not read back")
        require(edited.keys(in: MimeAppsList.defaults).contains(key), "a key set is not listed")
        edited.remove(DesktopEntry.id, from: key, in: MimeAppsList.defaults)
        _ = (edited.text, edited.hasNoEntries, MimeAppsList.desktopIDs(in: text))
    }

    /// Whether `text` is a URI scheme: a letter, then letters, digits, `+`, `-` and `.`.
    private static func isScheme(_ text: String) -> Bool {
        guard let first = text.utf8.first, isLetter(first) else { return false }
        return text.utf8.allSatisfy {
            isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: ".")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
}
