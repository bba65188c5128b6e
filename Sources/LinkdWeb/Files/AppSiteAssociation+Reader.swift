import LinkdFormats

extension AppSiteAssociation {
    /// Reads the parts of one file: its substitution variables, shared by every entry, then each entry in turn;
    /// what it leaves out it names in ``warnings``.
    struct Reader {
        /// The custom substitution variables as steps (``AssociationPattern/steps(of:)``).
        private let variables: [String: [[AssociationPattern.Token]]]
        /// The variables whose values cannot be read, by name, with their JSON path: an entry that names one is left
        /// out, since what it means cannot be known.
        private let unreadable: [String: String]
        var warnings: [AssociationFileError] = []

        /// - Throws: ``AssociationFileError`` when `substitutionVariables` is there but no object.
        init(variables value: JSONValue?, at path: String) throws(AssociationFileError) {
            var (read, unreadable, warnings) = ([String: [String]](), [String: String](), [AssociationFileError]())
            if let value {
                guard let members = value.objectMembers else { throw AssociationFileError(path, "expected an object") }
                for (name, values) in members {
                    do throws(AssociationFileError) {
                        read[name] = try AssociationFileError.strings(values, at: "\(path).\(name)")
                    } catch {
                        unreadable[name] = error.path
                        warnings.append(error)
                    }
                }
            }
            (variables, self.unreadable, self.warnings) = (AssociationPattern.steps(of: read), unreadable, warnings)
        }

        /// The entry `entry` (`appID` its app, in the object form of `details`), its rules read over `defaults`.
        ///
        /// - Throws: ``AssociationFileError`` naming the part that leaves the entry unusable.
        mutating func detail(
            _ entry: JSONValue,
            appID: String?,
            defaults: Rule,
            at path: String
        ) throws(AssociationFileError) -> Detail {
            guard entry.objectMembers != nil else { throw AssociationFileError(path, "expected an object") }
            let appIDs = if let appID { [appID] } else { try Self.appIDs(of: entry, at: path) }
            let entryDefaults = try rule(entry["defaults"], over: defaults, at: "\(path).defaults")
            if let components = entry["components"] {
                // Where `components` is, `paths` is ignored (iOS 13 and later).
                guard let list = components.arrayElements else {
                    throw AssociationFileError("\(path).components", "expected an array")
                }
                var rules: [Rule] = []
                for (index, component) in list.enumerated() {
                    let at = "\(path).components[\(index)]"
                    guard component.objectMembers != nil else { throw AssociationFileError(at, "expected an object") }
                    rules.append(try rule(component, over: entryDefaults, at: at))
                }
                return Detail(appIDs: appIDs, rules: rules)
            }
            guard let paths = entry["paths"] else {
                throw AssociationFileError(path, "has neither 'components' nor 'paths'")
            }
            let list = try AssociationFileError.strings(paths, at: "\(path).paths")
            var rules: [Rule] = []
            for (index, text) in list.enumerated() {
                // A legacy entry: the path alone, case-sensitive, `NOT ` excluding.
                let excludes = text.hasPrefix("NOT ")
                let pattern = try patterns(excludes ? String(text.dropFirst(4)) : text, at: "\(path).paths[\(index)]")
                rules.append(Rule(path: pattern, excludes: excludes, source: "\(path).paths[\(index)]"))
            }
            return Detail(appIDs: appIDs, rules: rules)
        }

        /// The apps an entry names: its `appIDs` where it has them (its `appID` is then ignored, as on a phone), else
        /// its `appID`.
        private static func appIDs(of entry: JSONValue, at path: String) throws(AssociationFileError) -> [String] {
            if let many = entry["appIDs"] { return try AssociationFileError.strings(many, at: "\(path).appIDs") }
            guard let one = entry["appID"] else {
                throw AssociationFileError(path, "names no app: expected 'appID' or 'appIDs'")
            }
            guard let id = one.stringValue else { throw AssociationFileError("\(path).appID", "expected a string") }
            return [id]
        }

        /// `value` (a `defaults` object or a component: the same keys, Apple's `defaults` being a kind of component)
        /// over `base`: each key it has replaces the one of `base`. A `?` object with a value that is no string
        /// leaves the rule with no query to match (a warning); any other part that cannot be read throws.
        mutating func rule(_ value: JSONValue?, over base: Rule, at path: String) throws(AssociationFileError) -> Rule {
            var rule = base
            guard let value else { return rule }
            guard value.objectMembers != nil else { throw AssociationFileError(path, "expected an object") }
            let flags = [
                ("caseSensitive", \Rule.caseSensitive), ("percentEncoded", \Rule.percentEncoded),
                ("exclude", \Rule.excludes),
            ]
            for (key, keyPath) in flags {
                guard let flag = value[key] else { continue }
                guard case .bool(let on) = flag else {
                    throw AssociationFileError("\(path).\(key)", "expected true or false")
                }
                rule[keyPath: keyPath] = on
            }
            if let text = value["/"] {
                guard let text = text.stringValue else { throw AssociationFileError("\(path)./", "expected a string") }
                rule.path = try patterns(text, at: "\(path)./")
            }
            if let text = value["#"] {
                guard let text = text.stringValue else { throw AssociationFileError("\(path).#", "expected a string") }
                rule.fragment = [try pattern(text, at: "\(path).#")]
            }
            if let query = value["?"] { rule.query = try self.query(query, at: "\(path).?") }
            rule.source = path
            return rule
        }

        /// A `?`: a pattern of the whole query, or an object of item patterns by name.
        private mutating func query(_ value: JSONValue, at path: String) throws(AssociationFileError) -> Query? {
            if let text = value.stringValue { return .whole([try pattern(text, at: path)]) }
            guard let members = value.objectMembers else {
                throw AssociationFileError(path, "expected a string or an object of strings")
            }
            var items: [(name: String, patterns: [AssociationPattern])] = []
            for (name, item) in members {
                guard let text = item.stringValue else {
                    // As a phone reads it: the object is dropped, and the rule matches any query.
                    warnings.append(
                        AssociationFileError("\(path).\(name)", "expected a string; the rule matches any query")
                    )
                    return nil
                }
                items.append((name, [try pattern(text, at: "\(path).\(name)")]))
            }
            return .items(items)
        }

        /// The path pattern `text` (``AssociationPattern/path(_:variables:)``).
        private func patterns(_ text: String, at path: String) throws(AssociationFileError) -> [AssociationPattern] {
            try checkVariables(in: text, at: path)
            return AssociationPattern.path(text, variables: variables)
        }

        private func pattern(_ text: String, at path: String) throws(AssociationFileError) -> AssociationPattern {
            try checkVariables(in: text, at: path)
            return AssociationPattern(text, variables: variables)
        }

        /// Throws when `text` names a substitution variable whose values cannot be read.
        private func checkVariables(in text: String, at path: String) throws(AssociationFileError) {
            for (name, source) in unreadable where text.contains("$(\(name))") {
                throw AssociationFileError(path, "names $(\(name)), whose values cannot be read (\(source))")
            }
        }
    }
}
