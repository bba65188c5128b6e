import LinkdSystem

/// The `[Desktop Entry]` group of a desktop entry file, as the Desktop Entry Specification writes it: `Key=Value`
/// lines, `#` comments, other groups and localized keys (`Name[fr]=`) left alone, and string values unescaped
/// (`\s`, `\n`, `\t`, `\r`, `\\`).
package struct DesktopEntryFile: Sendable, Equatable {
    /// The group's keys and their unescaped values; a key written twice keeps its first value.
    package let values: [String: String]

    /// Reads `text`.
    package init(_ text: String) {
        var values: [String: String] = [:]
        var inEntry = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.hasPrefix("[") {
                inEntry = line == "[Desktop Entry]"
                continue
            }
            guard inEntry, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            var key = line[..<equals]
            while key.last == " " { key = key.dropLast() }
            guard !key.isEmpty, !key.contains("["), values[String(key)] == nil else { continue }
            values[String(key)] = Self.unescaped(line[line.index(after: equals)...].drop { $0 == " " })
        }
        self.values = values
    }

    /// The value of `key`, unescaped.
    package subscript(_ key: String) -> String? { values[key] }

    /// Whether `key` is `true` (a boolean key: `true` or `false`).
    package func flag(_ key: String) -> Bool { values[key] == "true" }

    /// `value` with the specification's string escapes resolved; an unknown escape is kept as written.
    static func unescaped(_ value: Substring) -> String {
        var output = ""
        var scalars = value.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            switch scalars.next() {
            case "s": output += " "
            case "n": output += "\n"
            case "t": output += "\t"
            case "r": output += "\r"
            case "\\": output += "\\"
            case let other?: output += "\\" + String(other)
            case nil: output += "\\"
            }
        }
        return output
    }
}

extension DesktopEntryFile {
    /// The desktop entry `id` (`com.example.Notes.desktop`) as the desktop finds it: the first of
    /// `$XDG_DATA_HOME/applications`, then each folder of `$XDG_DATA_DIRS`, that holds it; `nil` when none does.
    package static func find(_ id: String, environment: [String: String]) -> (path: String, entry: DesktopEntryFile)? {
        guard id.hasSuffix(".desktop"), !id.contains("/") else { return nil }
        for folder in WebBrowser.applicationFolders(environment) {
            let path = folder + "/" + id
            guard let bytes = FileSystem.contents(of: path, limit: 65_536, followingLinks: true) else { continue }
            return (path, DesktopEntryFile(String(decoding: bytes, as: UTF8.self)))
        }
        return nil
    }
}
