package import LinkdRouting

/// A host's `assetlinks.json`: the Android apps it lets handle its links
/// (`delegate_permission/common.handle_all_urls`), each with its signing-certificate fingerprints and, on Android 15
/// and later, the rules that narrow the links it takes (`relation_extensions`, `dynamic_app_link_components`). It is
/// read as Google's Digital Asset Links tests read it: a statement that cannot be read is left out and named in
/// ``warnings``, the rest standing; a statement for an app counts only with a well-formed fingerprint; `include`
/// statements name other files of statements, followed one level deep, over https alone.
package struct AssetLinks: Sendable, Equatable {
    /// One statement that lets an Android app handle the host's links.
    package struct Statement: Sendable, Equatable {
        /// The package name.
        package let package: String
        /// Its well-formed SHA-256 fingerprints (``LinkdConfig/WebConfig/isFingerprint(_:)``); at least one.
        package let fingerprints: [String]
        /// Its dynamic rules, first first: the first that matches a link decides; `nil`: every link of the host.
        let rules: [AppSiteAssociation.Rule]?
        /// Where it is: its JSON path, after the address of the included file that holds it.
        package var source: String
    }

    /// An `include` statement: the address of another file of statements, and the JSON path that names it.
    package struct Include: Sendable, Equatable {
        package let address: String
        package let path: String
    }

    /// A file an `include` statement names, as fetched with its host's file: its bytes, or why it could not be had.
    package struct Included: Sendable, Equatable {
        package let address: String
        package let result: Result<[UInt8], AssociationFailure>

        package init(address: String, result: Result<[UInt8], AssociationFailure>) {
            self.address = address
            self.result = result
        }
    }

    /// The statements for Android apps, in the file's order (an included file's after the file's own).
    package var statements: [Statement] = []
    /// The `include` statements (none in an included file, which is read one level deep).
    package var includes: [Include] = []
    /// The parts that could not be read, each left out with the statement that holds it; an included file that could
    /// not be had or read, with its address.
    package var warnings: [AssociationFileError] = []

    /// The most bytes the file may hold (Android's verifier reads 1 MiB); an included file, the same.
    package static let sizeLimit = 1_024 * 1_024
    /// The most `include` statements a file may have followed; those after are named in ``warnings``.
    package static let includeLimit = 10

    /// The longest `include` address followed, in bytes: printable ASCII, as a URL is written.
    static let addressLimit = 2_048

    static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// The package names of ``statements``, each once.
    package var packages: [String] {
        statements.reduce(into: []) { names, statement in
            if !names.contains(statement.package) { names.append(statement.package) }
        }
    }

    /// The statements for `package`; with `fingerprints`, those alone that list one of them.
    func statements(for package: String, fingerprints: [String]) -> [Statement] {
        statements.filter { statement in
            statement.package == package
                && (fingerprints.isEmpty || statement.fingerprints.contains { fingerprints.contains($0) })
        }
    }

    /// Whether the file lets `package` handle links of the host, through a statement that lists one of
    /// `fingerprints` (any well-formed one when there are none).
    package func lists(_ package: String, fingerprints: [String] = []) -> Bool {
        !statements(for: package, fingerprints: fingerprints).isEmpty
    }

    /// What the file says of `link` for `package` (with `fingerprints` as in ``lists(_:fingerprints:)``): a statement
    /// without rules admits every link of the host; one with rules, the links whose first matching rule does not
    /// exclude them.
    package func decision(
        for package: String,
        fingerprints: [String] = [],
        link: LinkURL
    ) -> AppSiteAssociation.Decision {
        match(for: package, fingerprints: fingerprints, link: link).decision
    }

    /// What the file says of `link` for `package`, and what decided: the statement (one without rules), or its rule;
    /// `nil` when nothing did.
    package func match(
        for package: String,
        fingerprints: [String] = [],
        link: LinkURL
    ) -> (decision: AppSiteAssociation.Decision, rule: String?) {
        let parts = LinkParts(
            path: AssociationPath.normalized(link.pathname),
            query: link.query,
            fragment: link.fragment
        )
        var match: (decision: AppSiteAssociation.Decision, rule: String?) = (.notListed, nil)
        for statement in statements(for: package, fingerprints: fingerprints) {
            guard let rules = statement.rules else { return (.opens, statement.source) }
            guard let rule = rules.first(where: { $0.matches(parts) }) else { continue }
            if !rule.excludes { return (.opens, statement.source + rule.source) }
            if match.rule == nil { match = (.excluded, statement.source + rule.source) }
        }
        return match
    }
}
