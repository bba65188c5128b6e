import LinkdFormats

/// What `linkd register --web` replaced, kept so that `unregister --web` puts it back: the browser that had web links
/// (the desktop id linkd passes other links on to), the `mimeapps.list` as it was and as linkd wrote it, and each line
/// linkd changed as it was.
///
/// The file (`$XDG_STATE_HOME/linkd/web-links.json`, 0600) holds `{"version": 1, "browser": "…", "before": "…" or
/// null, "written": "…", "replaced": {"<section>/<key>": "<the line as it was>"}}`.
package struct WebRegistration: Sendable, Equatable {
    /// The desktop id of the browser web links go on to.
    package var browser: String
    /// The list's text before linkd changed it; `nil` when there was no list.
    package var before: String?
    /// The list's text as linkd wrote it: when it is still that, `unregister --web` writes ``before`` back.
    package var written: String
    /// Each line linkd replaced, as it was, by ``key(_:in:)``; a line linkd added has none.
    package var lines: [String: String]

    package init(browser: String, before: String?, written: String, lines: [String: String]) {
        self.browser = browser
        self.before = before
        self.written = written
        self.lines = lines
    }

    /// The key of `key`'s line in `section` in ``lines``.
    static func key(_ key: String, in section: String) -> String { section + "/" + key }

    /// Reads the file's bytes (`path` is only named in the problem).
    ///
    /// - Throws: ``Registrar/Problem`` naming `path` when they are not such an object.
    package init(parsing bytes: [UInt8], path: String) throws(Registrar.Problem) {
        let problem = Registrar.Problem(description: "cannot read '\(path)': it is not linkd's record of web links")
        guard let value = try? JSONValue.parse(bytes), value["version"]?.int64Value == 1,
            let browser = value["browser"]?.stringValue, let written = value["written"]?.stringValue,
            let members = value["replaced"]?.objectMembers, let before = value["before"]
        else { throw problem }
        self.browser = browser
        self.written = written
        switch before {
        case .null: self.before = nil
        case .string(let text): self.before = text
        default: throw problem
        }
        lines = [:]
        for (key, line) in members {
            guard let line = line.stringValue else { throw problem }
            lines[key] = line
        }
    }

    /// The file's text, which ``init(parsing:path:)`` reads back.
    package var text: String {
        let replaced = lines.keys.sorted().map { ($0, JSONValue.string(lines[$0] ?? "")) }
        return JSONValue.object([
            ("version", .number(1)), ("browser", .string(browser)), ("before", before.map(JSONValue.string) ?? .null),
            ("written", .string(written)), ("replaced", .object(replaced)),
        ]).serialized + "\n"
    }
}
