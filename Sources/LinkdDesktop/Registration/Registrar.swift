import FoundationEssentials
import Glibc
import LinkdConfig
import LinkdRouting
import LinkdSystem

/// Makes linkd the handler of URL schemes for this user: its desktop file under
/// `$XDG_DATA_HOME/applications`, the defaults in `$XDG_CONFIG_HOME/mimeapps.list`, and `update-desktop-database`.
package struct Registrar: Sendable {
    /// A scheme linkd will not register, or a file it cannot handle.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// Schemes that belong to browsers and mail clients: claiming them would take every web link.
    static let webSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    package let desktopFile: String
    package let applications: String
    package let mimeApps: String

    /// The per-user paths for `environment`.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let directories = XDGDirectories(environment: environment)
        applications = directories.dataHome + "/applications"
        desktopFile = applications + "/" + DesktopEntry.id
        mimeApps = directories.configHome + "/mimeapps.list"
    }

    /// `scheme` in lower case, or why linkd never registers it.
    package static func validate(_ scheme: String) throws(Problem) -> String {
        let lowered = scheme.lowercased()
        guard let first = lowered.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
            lowered.unicodeScalars.allSatisfy({ $0.isASCII && (InputCheckBytes.isSchemeCharacter($0)) })
        else {
            throw Problem(
                description: "'\(scheme)' is not a valid URL scheme (a letter, then letters, digits, '+', '-' or '.')"
            )
        }
        if webSchemes.contains(lowered) {
            throw Problem(
                description: "linkd never registers for '\(lowered)': it would take every such link from the browser"
            )
        }
        if LinkURL.blockedSchemes.contains(lowered) {
            throw Problem(description: "linkd never registers for '\(lowered)': it is never a link")
        }
        return lowered
    }

    private func read(_ path: String) throws(Problem) -> String? {
        guard access(path, F_OK) == 0 else { return nil }
        guard let data = FileManager.default.contents(atPath: path), let text = String(validating: data, as: UTF8.self)
        else { throw Problem(description: "cannot read '\(path)'") }
        return text
    }

    private func write(_ text: String, to path: String) throws(Problem) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw Problem(description: "cannot write '\(path)': \(error)")
        }
    }

    /// Registers `schemes` (validated first, all or none) for `executable`; returns whether any file changed.
    package func register(_ schemes: [String], executable: String) throws(Problem) -> Bool {
        var validated: [String] = []
        for scheme in schemes { validated.append(try Self.validate(scheme)) }
        let existing = try read(desktopFile)
        let entry = DesktopEntry(
            executable: executable,
            schemes: Set(existing.map(DesktopEntry.schemes(in:)) ?? []).union(validated)
        )
        var changed = false
        if existing != entry.text {
            try write(entry.text, to: desktopFile)
            changed = true
        }
        let listText = try read(mimeApps)
        var list = MimeAppsList(listText)
        for scheme in validated { list.set("x-scheme-handler/" + scheme, DesktopEntry.id, in: MimeAppsList.defaults) }
        if list.text != (listText ?? "") {
            try write(list.text, to: mimeApps)
            changed = true
        }
        if changed { Self.updateDesktopDatabase(applications) }
        return changed
    }

    /// Removes linkd's defaults and MimeType entries for `schemes`, and the desktop file when no scheme is left;
    /// every entry that is not linkd's stays as it was. Returns whether any file changed.
    package func unregister(_ schemes: [String]) throws(Problem) -> Bool {
        let lowered = schemes.map { $0.lowercased() }
        var changed = false
        let listText = try read(mimeApps)
        var list = MimeAppsList(listText)
        for scheme in lowered {
            for section in [MimeAppsList.defaults, MimeAppsList.added] {
                list.remove(DesktopEntry.id, from: "x-scheme-handler/" + scheme, in: section)
            }
        }
        if let listText, list.text != listText {
            try write(list.text, to: mimeApps)
            changed = true
        }
        if let existing = try read(desktopFile) {
            let remaining = DesktopEntry.schemes(in: existing).filter { !lowered.contains($0) }
            if remaining.isEmpty {
                unlink(desktopFile)
                changed = true
            } else if remaining.count != DesktopEntry.schemes(in: existing).count {
                let executable = Self.executable(in: existing) ?? "linkd"
                try write(DesktopEntry(executable: executable, schemes: remaining).text, to: desktopFile)
                changed = true
            }
        }
        if changed { Self.updateDesktopDatabase(applications) }
        return changed
    }

    /// The command of an entry's `Exec=` line, before ` open %u`.
    static func executable(in text: String) -> String? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Exec=") }) else { return nil }
        let command = line.dropFirst("Exec=".count)
        guard let end = command.firstRange(of: " open ") else { return nil }
        return String(command[..<end.lowerBound])
    }

    /// Runs `update-desktop-database` on `folder` when both exist, so GIO's `mimeinfo.cache` sees the change.
    static func updateDesktopDatabase(_ folder: String) {
        guard access(folder, F_OK) == 0 else { return }
        for tool in ["/usr/bin/update-desktop-database", "/bin/update-desktop-database"] where access(tool, X_OK) == 0 {
            _ = try? Subprocess([tool, folder], environment: ProcessInfo.processInfo.environment).run()
            return
        }
    }
}

/// Scheme characters, as the strict parser reads them.
enum InputCheckBytes {
    static func isSchemeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "+" || scalar == "-"
            || scalar == "."
    }
}
