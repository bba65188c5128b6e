/// linkd's desktop entry: `Exec=<linkd> open %u`, hidden, with one `x-scheme-handler/…` per scheme.
package struct DesktopEntry: Sendable, Equatable {
    /// The desktop file id GIO and xdg-utils know linkd by.
    package static let id = "linkd.desktop"

    /// The command before ` open %u` (linkd's absolute path when registered per user).
    package var executable: String
    /// The schemes, lower case, sorted.
    package var schemes: [String]

    package init(executable: String, schemes: some Sequence<String>) {
        self.executable = executable
        self.schemes = Set(schemes).sorted()
    }

    /// The file's text.
    package var text: String {
        """
        [Desktop Entry]
        Type=Application
        Name=linkd
        Comment=Open password-reset and sign-in links in the app they belong to
        Exec=\(Self.quoteIfNeeded(executable)) open %u
        Terminal=false
        NoDisplay=true
        MimeType=\(schemes.map { "x-scheme-handler/\($0);" }.joined())

        """
    }

    /// The first line of `text` that starts with `prefix`, without its line end, or `nil`. Lines end at each LF
    /// scalar, and a CR before it (a CR LF file) is not part of its line: a split at `"\n"` as a Character would
    /// not split a CR LF, which Swift reads as one Character. The line is a view of `text`: nothing is copied.
    static func firstLine(of text: String, startingWith prefix: String) -> Substring? {
        var rest = text.unicodeScalars[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: "\n") ?? rest.endIndex
            let scalars = rest[..<end]
            let line = Substring(scalars.last == "\r" ? scalars.dropLast() : scalars)
            if !line.isEmpty && line.hasPrefix(prefix) { return line }
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
        }
        return nil
    }

    static func quoteIfNeeded(_ path: String) -> String {
        path.contains(where: { " \t\"'\\$`".contains($0) }) ? "\"" + path.replacing("\"", with: "\\\"") + "\"" : path
    }

    /// The schemes an existing linkd.desktop declares (`MimeType=x-scheme-handler/…;`).
    package static func schemes(in text: String) -> [String] {
        guard let line = firstLine(of: text, startingWith: "MimeType=") else { return [] }
        return line.dropFirst("MimeType=".count).split(separator: ";").compactMap { type in
            type.hasPrefix("x-scheme-handler/") ? String(type.dropFirst("x-scheme-handler/".count)) : nil
        }
    }

    /// What is wrong with an entry's `Exec=` for a URL handler, which `desktop-file-validate` does not check: it must
    /// end in an unquoted `%u` or `%U`, or GIO passes no URL at all (and a quoted one arrives wrapped in quotes).
    ///
    /// - Returns: the problem, or `nil` when the line is right.
    package static func execProblem(in text: String) -> String? {
        guard let line = firstLine(of: text, startingWith: "Exec=") else {
            return "there is no Exec= line"
        }
        let words = line.dropFirst("Exec=".count).split(separator: " ")
        guard let last = words.last else { return "Exec= is empty" }
        if last == "%u" || last == "%U" { return nil }
        if last.contains("%u") || last.contains("%U") {
            return "Exec= has its %u quoted or joined to other text: \(line)"
        }
        return "Exec= does not end in %u, so GIO would start the handler without the link: \(line)"
    }
}
