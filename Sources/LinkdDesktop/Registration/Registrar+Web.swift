import LinkdConfig
import LinkdSystem

extension Registrar {
    /// What ``registerWeb(executable:environment:)`` or ``unregisterWeb()`` did.
    package struct WebOutcome: Sendable, Equatable {
        /// The browser other web links open in (register), or the one put back (unregister); `nil` when none was.
        package var browser: String?
        /// Whether any file changed.
        package var changed: Bool
        /// Whether it registered.
        package var isRegister: Bool

        /// `registered: web links (others open in firefox-esr.desktop)`, `already registered: web links (…)`,
        /// `unregistered: web links (restored: firefox-esr.desktop)` or `not registered: web links`.
        package var summary: String {
            switch (isRegister, changed) {
            case (true, true): "registered: web links (others open in \(browser ?? "the browser"))"
            case (true, false): "already registered: web links (others open in \(browser ?? "the browser"))"
            case (false, true): "unregistered: web links" + (browser.map { " (restored: \($0))" } ?? "")
            case (false, false): "not registered: web links"
            }
        }
    }

    /// The record of web links' registration (``WebRegistration``), beside the replaced defaults.
    package var webRecord: String {
        String(replacedDefaults[..<(replacedDefaults.lastIndex(of: "/") ?? replacedDefaults.startIndex)])
            + "/" + Self.webRecordName
    }

    /// The file name of ``webRecord``.
    static let webRecordName = "web-links.json"

    /// linkd's desktop file for web links, `<applications>/linkd-web.desktop`.
    package var webDesktopFile: String { applications + "/" + WebDesktopEntry.id }

    /// The browser of the user's registration of web links (``WebRegistration/browser``), read without the rest of a
    /// registrar, as a click needs it; `nil` when web links are not registered or the record does not read.
    package static func recordedBrowser(environment: [String: String]) -> String? {
        // The per-user registrar's record (``webRecord``), beside its replaced defaults in linkd's state folder.
        let path = XDGDirectories(environment: environment).linkdState + "/" + webRecordName
        guard let text = try? read(path) else { return nil }
        return try? WebRegistration(parsing: Array(text.utf8), path: path).browser
    }

    /// The record of the registration, `nil` when web links are not registered.
    ///
    /// - Throws: ``Problem`` when the file cannot be read or is not such a record.
    package func readWebRegistration() throws(Problem) -> WebRegistration? {
        guard let text = try read(webRecord) else { return nil }
        return try WebRegistration(parsing: Array(text.utf8), path: webRecord)
    }

    /// Makes linkd the handler of `http` and `https` links: writes `linkd-web.desktop`, sets it as the default of
    /// both in ``mimeApps`` (`[Default Applications]`, and first in `[Added Associations]`, as `gio mime` writes
    /// them), and records `browser` — the browser those links opened in, which gets every link no app claims — with
    /// the list as it was. Registering again keeps the first record, so that unregistering still restores the list as
    /// it was before linkd.
    ///
    /// - Throws: ``Problem`` for a file linkd cannot read or write.
    package func registerWeb(executable: String, browser: String) throws(Problem) -> WebOutcome {
        guard Self.isWritablePath(executable) else {
            throw Problem(description: "linkd's path has a line break, which a desktop entry's Exec= line cannot hold")
        }
        let listText = try read(mimeApps)
        var list = MimeAppsList(listText)
        let recorded = try readWebRegistration()
        var lines = recorded?.lines ?? [:]
        for scheme in WebDesktopEntry.schemes {
            let key = Self.key(of: scheme)
            for section in [MimeAppsList.defaults, MimeAppsList.added] {
                let recordKey = WebRegistration.key(key, in: section)
                if recorded == nil, let line = list.line(key, in: section) { lines[recordKey] = line }
            }
            list.set(key, WebDesktopEntry.id, in: MimeAppsList.defaults)
            let added = list.value(key, in: MimeAppsList.added).map(MimeAppsList.desktopIDs(in:)) ?? []
            let ids = [WebDesktopEntry.id] + added.filter { $0 != WebDesktopEntry.id }
            list.set(key, ids.joined(separator: ";") + ";", in: MimeAppsList.added)
        }
        let entry = WebDesktopEntry.text(executable: executable)
        var changed = false
        if try read(webDesktopFile) != entry {
            try write(entry, to: webDesktopFile)
            changed = true
        }
        if list.text != (listText ?? "") {
            try write(list.text, to: mimeApps)
            changed = true
        }
        let record = WebRegistration(
            browser: browser,
            before: recorded.map(\.before) ?? listText,
            written: list.text,
            lines: lines
        )
        if record != recorded {
            try write(record.text, to: webRecord, mode: 0o600, isPrivate: true)
        }
        if changed { updateDesktopDatabase() }
        return WebOutcome(browser: browser, changed: changed, isRegister: true)
    }

    /// Undoes ``registerWeb(executable:browser:)``: when the list is still as linkd wrote it, it is written back as it
    /// was, byte for byte (or removed, when there was none); else linkd's lines go and the lines they replaced come
    /// back, where linkd's entry still holds them, and every other change stays. `linkd-web.desktop` and the record go.
    ///
    /// - Throws: ``Problem`` for a file linkd cannot read or write.
    package func unregisterWeb() throws(Problem) -> WebOutcome {
        let recorded = try readWebRegistration()
        let listText = try read(mimeApps)
        var changed = false
        if let recorded, listText == recorded.written {
            if let before = recorded.before {
                try write(before, to: mimeApps)
            } else {
                FileSystem.remove(mimeApps)
            }
            changed = true
        } else if let listText {
            var list = MimeAppsList(listText)
            for scheme in WebDesktopEntry.schemes {
                let key = Self.key(of: scheme)
                let line = recorded?.lines[WebRegistration.key(key, in: MimeAppsList.defaults)]
                if list.value(key, in: MimeAppsList.defaults).map(MimeAppsList.desktopIDs(in:)) == [WebDesktopEntry.id]
                {
                    if let line {
                        list.setLine(line, for: key, in: MimeAppsList.defaults)
                    } else {
                        list.remove(WebDesktopEntry.id, from: key, in: MimeAppsList.defaults)
                    }
                }
                list.remove(WebDesktopEntry.id, from: key, in: MimeAppsList.added)
                let addedLine = recorded?.lines[WebRegistration.key(key, in: MimeAppsList.added)]
                if let addedLine, let now = list.value(key, in: MimeAppsList.added),
                    MimeAppsList.desktopIDs(in: now) == Self.desktopIDs(in: addedLine)
                {
                    list.setLine(addedLine, for: key, in: MimeAppsList.added)
                }
            }
            // A section linkd added goes again when nothing is left in it.
            for section in [MimeAppsList.defaults, MimeAppsList.added]
            where !(recorded?.before ?? "").contains("[\(section)]") {
                list.removeSectionIfEmpty(section)
            }
            if list.text != listText {
                try write(list.text, to: mimeApps)
                changed = true
            }
        }
        if FileSystem.exists(webDesktopFile) {
            FileSystem.remove(webDesktopFile)
            changed = true
        }
        if recorded != nil {
            FileSystem.remove(webRecord)
            changed = true
        }
        if changed { updateDesktopDatabase() }
        return WebOutcome(browser: recorded?.browser, changed: changed, isRegister: false)
    }
}
