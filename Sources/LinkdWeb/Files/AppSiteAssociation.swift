import LinkdFormats

/// A host's `apple-app-site-association` file, as far as its `applinks` go: which apps it lists, and for each, which
/// links it admits — in the legacy form (`appID` and `paths`, `NOT ` excluding) or the current one (`appIDs` and
/// `components` with `/`, `?`, `#`, `exclude`, `caseSensitive`, `percentEncoded`, `defaults` and substitution
/// variables), answering as Apple's matcher does where its pages are silent. Keys it does not know (`comment`,
/// `webcredentials` …) are left alone, as Apple's reader does; a part it cannot read is left out with what holds it,
/// and named in ``warnings``.
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
        /// Whether an item its `?` object names that the link lacks counts as `""` (Apple's reading); an Android
        /// dynamic rule asks for the item itself.
        var missingItemIsEmpty = true
        /// Its JSON path in the file (`$.applinks.details[0].components[1]`), for saying which rule decided.
        var source = ""

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

    /// The parts of the file that could not be read, each left out with what holds it: an entry (with its rules), a
    /// substitution variable (with the entries that name it), or the query of a rule whose `?` object holds a value
    /// that is no string (the rule keeps its `/` and `#`).
    package var warnings: [AssociationFileError] = []

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

    /// Reads the file's `bytes`: an entry that cannot be read is left out (named in ``warnings``), the rest stand.
    ///
    /// - Throws: ``AssociationFileError`` naming the part at fault when no part of the file is usable: not JSON, over
    ///   ``sizeLimit``, no `applinks` object, `applinks.defaults` or `applinks.substitutionVariables` (which every
    ///   entry shares) not readable, no `details` array or object, entries none of which can be read, or patterns
    ///   that take more than ``stepLimit`` steps together.
    package init(parsing bytes: [UInt8]) throws(AssociationFileError) {
        let root = try AssociationFileError.json(of: bytes, limit: Self.sizeLimit)
        guard let applinks = root["applinks"] else { throw AssociationFileError("$.applinks", "missing") }
        guard applinks.objectMembers != nil else { throw AssociationFileError("$.applinks", "expected an object") }
        var reader = try Reader(variables: applinks["substitutionVariables"], at: "$.applinks.substitutionVariables")
        let defaults = try reader.rule(applinks["defaults"], over: Rule(), at: "$.applinks.defaults")
        var (steps, skipped) = (0, [AssociationFileError]())
        details = []
        for (path, appID, entry) in try Self.entries(of: applinks["details"]) {
            let detail: Detail
            let noted = reader.warnings.count
            do throws(AssociationFileError) {
                detail = try reader.detail(entry, appID: appID, defaults: defaults, at: path)
            } catch {
                // Left out whole: what it noted of its parts goes with it.
                reader.warnings.removeSubrange(noted...)
                reader.warnings.append(AssociationFileError(error.path, error.problem + "; its entry is left out"))
                skipped.append(error)
                continue
            }
            steps += detail.rules.reduce(0) { $0 + $1.cost }
            guard steps <= Self.stepLimit else {
                throw AssociationFileError(
                    path,
                    "the patterns up to here take \(steps) steps, more than the \(Self.stepLimit) a file may "
                        + "(a substitution variable counts all its values at each use)"
                )
            }
            details.append(detail)
        }
        if details.isEmpty, let first = skipped.first { throw first }
        warnings = reader.warnings
    }

    /// The entries of `details`, each with its JSON path: an array of entries, or (the iOS 9 form) an object of
    /// entries by app id, whose keys are their apps.
    private static func entries(
        of details: JSONValue?
    ) throws(AssociationFileError) -> [(path: String, appID: String?, entry: JSONValue)] {
        let path = "$.applinks.details"
        if let elements = details?.arrayElements {
            return elements.enumerated().map { ("\(path)[\($0)]", nil, $1) }
        }
        if let members = details?.objectMembers { return members.map { ("\(path).\($0)", $0, $1) } }
        throw AssociationFileError(path, "expected an array of entries (or an object of entries by app id)")
    }
}
