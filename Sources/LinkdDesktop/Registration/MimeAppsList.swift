/// `mimeapps.list` (the MIME Apps spec), edited line by line so that every entry linkd does not own stays exactly
/// as it was, comments and unknown sections included.
package struct MimeAppsList: Sendable, Equatable {
    /// The section of defaults, `[Default Applications]`.
    package static let defaults = "Default Applications"
    /// The section of associations added to those the desktop files declare, `[Added Associations]`.
    package static let added = "Added Associations"

    private var lines: [String]

    /// Reads `text` (an empty list when `nil`), split at each LF (a CR before it stays with its line).
    package init(_ text: String?) {
        // Split by scalars, not characters: a CR LF is one character, which a split at "\n" would not split.
        lines = (text ?? "").unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
            String(String.UnicodeScalarView($0))
        }
        if lines.last == "" { lines.removeLast() }
    }

    /// The file's text.
    package var text: String { lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n" }

    private func section(of index: Int) -> String? {
        for line in lines[...index].reversed() where line.hasPrefix("[") && line.hasSuffix("]") {
            return String(line.dropFirst().dropLast())
        }
        return nil
    }

    private func keyIndex(_ key: String, in section: String) -> Int? {
        lines.indices.first { index in
            lines[index].hasPrefix(key + "=") && self.section(of: index) == section
        }
    }

    /// The value of `key` in `section`, or `nil`.
    package func value(_ key: String, in section: String) -> String? {
        keyIndex(key, in: section).map { String(lines[$0].dropFirst(key.count + 1)) }
    }

    /// The line of `key` in `section` exactly as it is written, or `nil`.
    package func line(_ key: String, in section: String) -> String? {
        keyIndex(key, in: section).map { lines[$0] }
    }

    /// The keys of `section`, in file order.
    package func keys(in section: String) -> [String] {
        lines.indices.compactMap { index in
            guard let equals = lines[index].firstIndex(of: "="), !lines[index].hasPrefix("#"),
                self.section(of: index) == section
            else { return nil }
            return String(lines[index][..<equals])
        }
    }

    /// Whether the list holds nothing but section headers and blank lines.
    package var hasNoEntries: Bool {
        lines.allSatisfy { $0.isEmpty || ($0.hasPrefix("[") && $0.hasSuffix("]")) }
    }

    /// The desktop file ids of a value: `a.desktop;b.desktop;` is both.
    package static func desktopIDs(in value: String) -> [String] {
        value.split(separator: ";").map(String.init)
    }

    /// Sets `key=value` in `section`, adding the section at the end when it is missing.
    package mutating func set(_ key: String, _ value: String, in section: String) {
        setLine(key + "=" + value, for: key, in: section)
    }

    /// Puts `line` (the whole line, as it is to be written) in the place of `key` in `section`; when `key` is not
    /// there, after the section's last entry, adding the section at the end when it is missing.
    package mutating func setLine(_ line: String, for key: String, in section: String) {
        if let index = keyIndex(key, in: section) {
            lines[index] = line
            return
        }
        if let header = lines.firstIndex(of: "[" + section + "]") {
            var end = header + 1
            while end < lines.count && !lines[end].hasPrefix("[") { end += 1 }
            while end > header + 1 && lines[end - 1].isEmpty { end -= 1 }
            lines.insert(line, at: end)
        } else {
            if let last = lines.last, !last.isEmpty { lines.append("") }
            lines += ["[" + section + "]", line]
        }
    }

    /// Removes `desktopID` from `key` in `section` (a `;`-list or a single value); the line goes when nothing is left.
    package mutating func remove(_ desktopID: String, from key: String, in section: String) {
        guard let index = keyIndex(key, in: section) else { return }
        let items = Self.desktopIDs(in: String(lines[index].dropFirst(key.count + 1)))
        let kept = items.filter { $0 != desktopID }
        guard kept.count != items.count else { return }
        if kept.isEmpty {
            lines.remove(at: index)
        } else {
            lines[index] = key + "=" + kept.joined(separator: ";") + ";"
        }
    }
}
