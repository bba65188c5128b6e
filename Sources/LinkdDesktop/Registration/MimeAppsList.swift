/// `mimeapps.list` (the MIME Apps spec), edited line by line so that every entry linkd does not own stays exactly
/// as it was, comments and unknown sections included.
package struct MimeAppsList: Sendable, Equatable {
    /// The section of defaults, `[Default Applications]`.
    package static let defaults = "Default Applications"
    /// The section of associations added to those the desktop files declare, `[Added Associations]`.
    package static let added = "Added Associations"

    /// The lines without their LF; views of the text read, or of the lines an edit wrote.
    private var lines: [Substring]

    /// Reads `text` (an empty list when `nil`), split at each LF (a CR before it stays with its line).
    package init(_ text: String?) {
        // Split by scalars, not characters: a CR LF is one character, which a split at "\n" would not split.
        lines = (text ?? "").unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(Substring.init)
        if lines.last == "" { lines.removeLast() }
    }

    /// The file's text.
    package var text: String { lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n" }

    /// The section a header line opens (`[Name]`, or `[Name]` and a CR, as a file with CR LF line ends has it), or
    /// `nil` for any other line.
    private static func header(_ line: Substring) -> Substring? {
        let line = line.hasSuffix("\r") ? line.dropLast() : line
        guard line.hasPrefix("["), line.hasSuffix("]") else { return nil }
        return line.dropFirst().dropLast()
    }

    /// The section each line is in, by index (a header is in its own), read in one pass: a lookup stays linear in
    /// the file's length however long the file is.
    private var sections: [Substring?] {
        var current: Substring?
        return lines.map { line in
            if let name = Self.header(line) { current = name }
            return current
        }
    }

    private func keyIndex(_ key: String, in section: String) -> Int? {
        let sections = self.sections
        let prefix = key + "="
        return lines.indices.first { index in sections[index] == section[...] && lines[index].hasPrefix(prefix) }
    }

    /// The value of `key` in `section`, or `nil`.
    package func value(_ key: String, in section: String) -> String? {
        keyIndex(key, in: section).map { value(of: key, at: $0) }
    }

    /// The value of the line at `index`, which is `key`'s, without the CR of a CR LF file.
    private func value(of key: String, at index: Int) -> String {
        let value = lines[index].dropFirst(key.count + 1)
        return String(value.hasSuffix("\r") ? value.dropLast() : value)
    }

    /// The line of `key` in `section` exactly as it is written, or `nil`.
    package func line(_ key: String, in section: String) -> String? {
        keyIndex(key, in: section).map { String(lines[$0]) }
    }

    /// The keys of `section`, in file order.
    package func keys(in section: String) -> [String] {
        let sections = self.sections
        return lines.indices.compactMap { index in
            guard sections[index] == section[...], let equals = lines[index].firstIndex(of: "="),
                !lines[index].hasPrefix("#")
            else { return nil }
            return String(lines[index][..<equals])
        }
    }

    /// Whether the list holds nothing but section headers and blank lines.
    package var hasNoEntries: Bool {
        lines.allSatisfy { $0.isEmpty || Self.header($0) != nil }
    }

    /// The desktop file ids of a value: `a.desktop;b.desktop;` is both (a CR at its end, from a CR LF file, is not
    /// part of the last).
    package static func desktopIDs(in value: String) -> [String] {
        (value.hasSuffix("\r") ? value.dropLast() : Substring(value)).split(separator: ";").map(String.init)
    }

    /// Sets `key=value` in `section`, adding the section at the end when it is missing.
    package mutating func set(_ key: String, _ value: String, in section: String) {
        setLine(key + "=" + value, for: key, in: section)
    }

    /// Puts `line` (the whole line, as it is to be written) in the place of `key` in `section`; when `key` is not
    /// there, after the section's last entry, adding the section at the end when it is missing.
    package mutating func setLine(_ line: String, for key: String, in section: String) {
        if let index = keyIndex(key, in: section) {
            lines[index] = Self.ending(line, like: lines[index])
            return
        }
        if let header = lines.firstIndex(where: { Self.header($0) == section[...] }) {
            var end = header + 1
            while end < lines.count && Self.header(lines[end]) == nil { end += 1 }
            while end > header + 1 && (lines[end - 1].isEmpty || lines[end - 1] == "\r") { end -= 1 }
            lines.insert(Self.ending(line, like: lines[header]), at: end)
        } else {
            if let last = lines.last, !last.isEmpty { lines.append("") }
            lines += ["[" + section + "]", line[...]]
        }
    }

    /// Removes `desktopID` from `key` in `section` (a `;`-list or a single value); the line goes when nothing is left.
    package mutating func remove(_ desktopID: String, from key: String, in section: String) {
        guard let index = keyIndex(key, in: section) else { return }
        let items = Self.desktopIDs(in: value(of: key, at: index))
        let kept = items.filter { $0 != desktopID }
        guard kept.count != items.count else { return }
        if kept.isEmpty {
            lines.remove(at: index)
        } else {
            lines[index] = Self.ending(key + "=" + kept.joined(separator: ";") + ";", like: lines[index])
        }
    }

    /// Removes `section` when it holds no entry (blank lines and comments aside), with the blank line before it.
    package mutating func removeSectionIfEmpty(_ section: String) {
        guard let header = lines.firstIndex(where: { Self.header($0) == section[...] }) else { return }
        var end = header + 1
        while end < lines.count && Self.header(lines[end]) == nil {
            guard lines[end].isEmpty || lines[end] == "\r" else { return }
            end += 1
        }
        let start = header > 0 && (lines[header - 1].isEmpty || lines[header - 1] == "\r") ? header - 1 : header
        lines.removeSubrange(start..<end)
    }

    /// `line` with a CR at its end when `neighbour` has one: an edit keeps a CR LF file's line ends.
    private static func ending(_ line: String, like neighbour: Substring) -> Substring {
        neighbour.hasSuffix("\r") && !line.hasSuffix("\r") ? (line + "\r")[...] : line[...]
    }
}
