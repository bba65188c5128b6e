import LinkdFormats

/// The defaults linkd replaced in a `mimeapps.list`, remembered so that `unregister` can put each back as it was.
///
/// The file holds `{"version": 1, "replaced": {"<scheme>": "<the line as it was>"}}`; linkd writes it atomically,
/// mode 0600, and removes it when nothing is left to remember.
package struct ReplacedDefaults: Sendable, Equatable {
    /// The `[Default Applications]` line linkd replaced, exactly as it was written, by scheme.
    package var lines: [String: String]

    /// Remembers `lines`.
    package init(lines: [String: String] = [:]) {
        self.lines = lines
    }

    /// Reads the file's bytes (`path` is only named in the problem).
    ///
    /// - Throws: ``Registrar/Problem`` naming `path` when they are not such an object.
    package init(parsing bytes: [UInt8], path: String) throws(Registrar.Problem) {
        let problem = Registrar.Problem(
            description: "cannot read '\(path)': it is not linkd's list of replaced defaults"
        )
        guard let value = try? JSONValue.parse(bytes), value["version"]?.int64Value == 1,
            let members = value["replaced"]?.objectMembers
        else { throw problem }
        lines = [:]
        for (scheme, line) in members {
            guard let line = line.stringValue else { throw problem }
            lines[scheme] = line
        }
    }

    /// The file's text: one JSON object on one line, schemes in order, which ``init(parsing:path:)`` reads back.
    package var text: String {
        let replaced = lines.keys.sorted().map { ($0, JSONValue.string(lines[$0] ?? "")) }
        return JSONValue.object([("version", .number(1)), ("replaced", .object(replaced))]).serialized + "\n"
    }
}
