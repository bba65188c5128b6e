import LinkdFormats

/// A host's `apple-app-site-association` file, as far as its `applinks` go: which apps it lists, and for each, which
/// links it admits — in the legacy form (`appID` and `paths`, `NOT ` excluding) or the current one (`appIDs` and
/// `components` with `/`, `?`, `#`, `exclude`, `caseSensitive`, `percentEncoded`, `defaults` and substitution
/// variables). Keys it does not know (`comment`, `webcredentials` …) are left alone, as Apple's reader does.
package struct AppSiteAssociation: Sendable, Equatable {
    /// One `details` entry: the apps it names and its rules, in order.
    package struct Detail: Sendable, Equatable {
        package var appIDs: [String]
        package var rules: [Rule]
    }

    /// One rule: what parts of a link it looks at, and whether a link it matches is kept out of the app.
    package struct Rule: Sendable, Equatable {
        /// The path's pattern; `nil`: any path.
        var path: [AssociationPattern]?
        /// The query's: the whole of it, or its items by name.
        var query: Query?
        /// The fragment's patterns; `nil`: any fragment.
        var fragment: [AssociationPattern]?
        var excludes = false
        var caseSensitive = true
        var percentEncoded = true

        /// The steps of its patterns (``AssociationPattern/cost``).
        var cost: Int {
            let queryCost: Int =
                switch query {
                case nil: 0
                case .whole(let patterns)?: patterns.reduce(0) { $0 + $1.cost }
                case .items(let items)?: items.reduce(0) { total, item in item.patterns.reduce(total) { $0 + $1.cost } }
                }
            return [path, fragment].reduce(queryCost) { total, patterns in
                (patterns ?? []).reduce(total) { $0 + $1.cost }
            }
        }
    }

    /// What a rule asks of the query.
    enum Query: Sendable, Equatable {
        /// The query as a whole (without its `?`).
        case whole([AssociationPattern])
        /// Items by name: every item of that name (or `""` when there is none) matches the patterns.
        case items([(name: String, patterns: [AssociationPattern])])

        static func == (left: Query, right: Query) -> Bool {
            switch (left, right) {
            case (.whole(let a), .whole(let b)): a == b
            case (.items(let a), .items(let b)): a.elementsEqual(b) { $0.name == $1.name && $0.patterns == $1.patterns }
            default: false
            }
        }
    }

    /// The entries, first first: the first rule that matches a link decides.
    package var details: [Detail]

    /// The steps its patterns take together (at most ``stepLimit``): what a click matches per character of the link
    /// at worst.
    package var steps: Int { details.reduce(0) { total, detail in detail.rules.reduce(total) { $0 + $1.cost } } }

    /// The most bytes an association file may hold (Apple's limit).
    package static let sizeLimit = 128 * 1_024

    /// The most steps a file's patterns may take together (``AssociationPattern/cost``, a substitution variable
    /// counted with all its values at each use): what a click matches per character of the link at worst. Twice the
    /// characters a file may hold, so that a file of plain patterns is never refused, and one that multiplies its
    /// variables out of proportion is.
    package static let stepLimit = 2 * sizeLimit

    /// Reads the file's `bytes`.
    ///
    /// - Throws: ``AssociationFileError`` naming the part at fault: not JSON, no `applinks.details` array, an entry
    ///   without its app, a rule whose parts are not strings (or, for `?`, an object of strings), patterns that take
    ///   more than ``stepLimit`` steps together.
    package init(parsing bytes: [UInt8]) throws(AssociationFileError) {
        let root = try AssociationFileError.json(of: bytes, limit: Self.sizeLimit)
        guard let applinks = root["applinks"] else { throw AssociationFileError("$.applinks", "missing") }
        guard applinks.objectMembers != nil else { throw AssociationFileError("$.applinks", "expected an object") }
        let variables = AssociationPattern.steps(
            of: try Self.variables(applinks["substitutionVariables"], at: "$.applinks.substitutionVariables")
        )
        let defaults = try Self.defaults(applinks["defaults"], over: Rule(), at: "$.applinks.defaults")
        guard let entries = applinks["details"]?.arrayElements else {
            throw AssociationFileError("$.applinks.details", "expected an array")
        }
        var steps = 0
        details = try entries.enumerated().map { index, entry throws(AssociationFileError) in
            let path = "$.applinks.details[\(index)]"
            let detail = try Self.detail(entry, defaults: defaults, variables: variables, at: path)
            steps += detail.rules.reduce(0) { $0 + $1.cost }
            guard steps <= Self.stepLimit else {
                throw AssociationFileError(
                    path,
                    "the patterns up to here take \(steps) steps, more than the \(Self.stepLimit) a file may "
                        + "(a substitution variable counts all its values at each use)"
                )
            }
            return detail
        }
    }

    private static func detail(
        _ entry: JSONValue,
        defaults: Rule,
        variables: [String: [[AssociationPattern.Token]]],
        at path: String
    ) throws(AssociationFileError) -> Detail {
        guard entry.objectMembers != nil else { throw AssociationFileError(path, "expected an object") }
        var appIDs: [String] = []
        if let one = entry["appID"] {
            guard let id = one.stringValue else { throw AssociationFileError("\(path).appID", "expected a string") }
            appIDs.append(id)
        }
        if let many = entry["appIDs"] {
            appIDs += try AssociationFileError.strings(many, at: "\(path).appIDs")
        }
        guard !appIDs.isEmpty else { throw AssociationFileError(path, "names no app: expected 'appID' or 'appIDs'") }
        let ruleDefaults = try Self.defaults(entry["defaults"], over: defaults, at: "\(path).defaults")
        if let components = entry["components"] {
            // Where `components` is, `paths` is ignored (iOS 13 and later).
            guard let list = components.arrayElements else {
                throw AssociationFileError("\(path).components", "expected an array")
            }
            let rules = try list.enumerated().map { index, component throws(AssociationFileError) in
                try Self.component(
                    component,
                    defaults: ruleDefaults,
                    variables: variables,
                    at: "\(path).components[\(index)]"
                )
            }
            return Detail(appIDs: appIDs, rules: rules)
        }
        guard let paths = entry["paths"] else {
            throw AssociationFileError(path, "has neither 'components' nor 'paths'")
        }
        let list = try AssociationFileError.strings(paths, at: "\(path).paths")
        return Detail(appIDs: appIDs, rules: list.map(Self.legacy))
    }

    /// A legacy `paths` entry: the path alone, case-sensitive, `NOT ` excluding.
    private static func legacy(_ text: String) -> Rule {
        let excludes = text.hasPrefix("NOT ")
        let pattern = excludes ? String(text.dropFirst(4)) : text
        return Rule(path: [AssociationPattern(pattern)], excludes: excludes)
    }

    private static func component(
        _ value: JSONValue,
        defaults: Rule,
        variables: [String: [[AssociationPattern.Token]]],
        at path: String
    ) throws(AssociationFileError) -> Rule {
        guard value.objectMembers != nil else { throw AssociationFileError(path, "expected an object") }
        var rule = try Self.defaults(value, over: defaults, at: path)
        rule.path = try Self.patterns(value["/"], variables: variables, at: "\(path)./")
        rule.fragment = try Self.patterns(value["#"], variables: variables, at: "\(path).#")
        switch value["?"] {
        case nil: rule.query = nil
        case .string(let text)?: rule.query = .whole([AssociationPattern(text, variables: variables)])
        case .object(let members)?:
            var items: [(name: String, patterns: [AssociationPattern])] = []
            for (name, pattern) in members {
                guard let text = pattern.stringValue else {
                    throw AssociationFileError("\(path).?.\(name)", "expected a string")
                }
                items.append((name, [AssociationPattern(text, variables: variables)]))
            }
            rule.query = .items(items)
        case _?: throw AssociationFileError("\(path).?", "expected a string or an object of strings")
        }
        if let exclude = value["exclude"] {
            guard case .bool(let flag) = exclude else {
                throw AssociationFileError("\(path).exclude", "expected true or false")
            }
            rule.excludes = flag
        }
        return rule
    }

    private static func patterns(
        _ value: JSONValue?,
        variables: [String: [[AssociationPattern.Token]]],
        at path: String
    ) throws(AssociationFileError) -> [AssociationPattern]? {
        guard let value else { return nil }
        guard let text = value.stringValue else { throw AssociationFileError(path, "expected a string") }
        return [AssociationPattern(text, variables: variables)]
    }

    /// `caseSensitive` and `percentEncoded` of `value` (a `defaults` object or a component) over `base`.
    private static func defaults(
        _ value: JSONValue?,
        over base: Rule,
        at path: String
    ) throws(AssociationFileError) -> Rule {
        var rule = base
        guard let value else { return rule }
        guard value.objectMembers != nil else { throw AssociationFileError(path, "expected an object") }
        for (key, keyPath) in [("caseSensitive", \Rule.caseSensitive), ("percentEncoded", \Rule.percentEncoded)] {
            guard let flag = value[key] else { continue }
            guard case .bool(let on) = flag else {
                throw AssociationFileError("\(path).\(key)", "expected true or false")
            }
            rule[keyPath: keyPath] = on
        }
        return rule
    }

    private static func variables(
        _ value: JSONValue?,
        at path: String
    ) throws(AssociationFileError) -> [String: [String]] {
        guard let value else { return [:] }
        guard let members = value.objectMembers else { throw AssociationFileError(path, "expected an object") }
        var variables: [String: [String]] = [:]
        for (name, values) in members {
            variables[name] = try AssociationFileError.strings(values, at: "\(path).\(name)")
        }
        return variables
    }
}
