package import LinkdFormats

extension AppConfigDecoder {
    /// The action of the link at `path`: the keyword alone, or an object whose one member the keyword names, read by
    /// that action's kind (``ActionSettings``).
    mutating func linkAction(_ value: JSONValue?, at path: String) -> LinkAction? {
        let members = value?.objectMembers ?? []
        let named: (keyword: String, value: JSONValue?)? =
            switch value {
            case .string(let keyword): (keyword, nil)
            case .object where members.count == 1: (members[0].0, members[0].1)
            default: nil
            }
        guard let named, let kind = actions.kind(named.keyword) else {
            guard value != nil else {
                fail(path, "missing")
                return nil
            }
            let examples = actions.all.map { $0.example }
            let list = examples.dropLast().joined(separator: ", ") + (examples.count > 1 ? " or " : "")
            fail(path, "expected " + list + (examples.last ?? ""))
            return nil
        }
        let memberPath = named.value == nil ? path : "\(path).\(named.keyword)"
        return Self.decode(kind, named.value, at: memberPath, with: &self)
    }

    private static func decode<Settings: ActionSettings>(
        _ kind: Settings.Type,
        _ value: JSONValue?,
        at path: String,
        with decoder: inout AppConfigDecoder
    ) -> LinkAction? {
        Settings.decode(value, at: path, with: &decoder).map(LinkAction.init)
    }

    /// A program's argv (`[program, argument…]`), its program resolved by ``programs``: every argument as written,
    /// since a link never goes into argv. A program that cannot be found, or is not trusted, is a problem of the link
    /// alone (see ``AppConfigDecoder``).
    package mutating func programArgv(_ value: JSONValue?, at path: String) -> [String]? {
        guard let argv = value?.arrayElements, !argv.isEmpty,
            case let words = argv.compactMap(\.stringValue), words.count == argv.count,
            words.allSatisfy({ !$0.isEmpty })
        else {
            fail(path, "expected a non-empty array of non-empty strings (the program and its arguments)")
            return nil
        }
        var isValid = true
        for (index, word) in words.enumerated() {
            guard let placeholder = Self.placeholder(in: word) else { continue }
            fail(
                "\(path)[\(index)]",
                "'\(placeholder)' is passed as written: "
                    + "the program gets the link as JSON on standard input, never in argv"
            )
            isValid = false
        }
        do throws(ProgramSearch.Failure) {
            let program = try programs.resolve(words[0])
            return isValid ? [program] + words.dropFirst() : nil
        } catch {
            report("\(path)[0]", error.description)
            // A file someone else can change is never run: its link does not load.
            if case .notTrusted = error { return nil }
            // Any other such link stays, with the program as written (no absolute path): the daemon then answers a
            // click on it that the program cannot be found, which a person can act on, and never runs anything for it.
            return isValid ? words : nil
        }
    }

    /// The first desktop-entry field code (`%u`, `%F` …) or `{name}` placeholder (`{url}`, `{link}`) in `word`;
    /// a shell's `${name}` is not one.
    static func placeholder(in word: String) -> String? {
        let scalars = Array(word.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if scalar == "%", index + 1 < scalars.count, "fFuUdDnNickvm".unicodeScalars.contains(scalars[index + 1]) {
                return "%" + String(scalars[index + 1])
            }
            guard scalar == "{", index == 0 || scalars[index - 1] != "$",
                let close = scalars[(index + 1)...].firstIndex(of: "}"), close > index + 1,
                scalars[(index + 1)..<close].allSatisfy({ $0.properties.isAlphabetic || $0 == "_" || $0 == "-" })
            else { continue }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars[index...close])
            return text
        }
        return nil
    }

    /// Records that an action of `keyword` takes no settings, when `value` gives some; `true` when it gives none.
    package mutating func expectKeywordAlone(_ keyword: String, _ value: JSONValue?, at path: String) -> Bool {
        guard value != nil else { return true }
        fail(path, "expected \"\(keyword)\" alone: the action takes no settings")
        return false
    }
}
