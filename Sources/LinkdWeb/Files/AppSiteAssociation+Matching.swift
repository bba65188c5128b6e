package import LinkdRouting

extension AppSiteAssociation {
    /// What a file says of a link for one app.
    package enum Decision: Sendable, Equatable {
        /// An entry naming the app admits the link.
        case opens
        /// An entry naming the app keeps it out (`NOT `, `"exclude": true`).
        case excluded
        /// No entry naming the app admits it, or an entry of another app, earlier in the file, takes it.
        case notListed
    }

    /// What the file says of `link` (its path, query and fragment) for `appID`.
    package func decision(for appID: String, link: LinkURL) -> Decision {
        decision(for: appID, path: link.pathname, query: link.query, fragment: link.fragment)
    }

    /// What the file says of `link` for `appID`, and the JSON path of the rule that decided (`nil` when none did).
    package func match(for appID: String, link: LinkURL) -> (decision: Decision, rule: String?) {
        match(for: appID, path: link.pathname, query: link.query, fragment: link.fragment)
    }

    /// What the file says of a link of `path`, `query` and `fragment` (as the link writes them, without `?` and `#`)
    /// for `appID`: the entries are read in order, and in each the rules in order; the first rule that matches
    /// decides. An entry's excluding rule keeps the link from that entry's apps alone; a later entry may still take
    /// it. The path is matched as its site means it (``AssociationPath``).
    package func decision(for appID: String, path: String, query: String?, fragment: String?) -> Decision {
        match(for: appID, path: path, query: query, fragment: fragment).decision
    }

    private func match(
        for appID: String,
        path: String,
        query: String?,
        fragment: String?
    ) -> (decision: Decision, rule: String?) {
        let parts = LinkParts(path: AssociationPath.normalized(path), query: query, fragment: fragment)
        for detail in details {
            guard let rule = detail.rules.first(where: { $0.matches(parts) }) else { continue }
            let isTheApps = detail.appIDs.contains(appID)
            if !rule.excludes { return (isTheApps ? .opens : .notListed, rule.source) }
            if isTheApps { return (.excluded, rule.source) }
        }
        return (.notListed, nil)
    }
}

/// A link's path, query and fragment, as written and percent-decoded.
struct LinkParts {
    let path: String
    let query: String
    let fragment: String
    let hasQuery: Bool

    init(path: String, query: String?, fragment: String?) {
        self.path = path
        self.query = query ?? ""
        self.fragment = fragment ?? ""
        hasQuery = query != nil
    }

    /// `text` percent-decoded (a `+` stays a `+`); bytes that are no UTF-8 read as U+FFFD.
    static func decoded(_ text: String) -> String {
        String(decoding: PercentEncoding.decode(Array(text.utf8), plusAsSpace: false), as: UTF8.self)
    }

    /// The query's items, `name=value` between `&`; an item without `=` has the value `""`.
    var items: [(name: String, value: String)] {
        guard hasQuery, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            guard let equals = item.firstIndex(of: "=") else { return (String(item), "") }
            return (String(item[..<equals]), String(item[item.index(after: equals)...]))
        }
    }
}

extension AppSiteAssociation.Rule {
    /// Whether every part the rule names matches the link's (a part it leaves out matches anything).
    func matches(_ parts: LinkParts) -> Bool {
        let text = { (raw: String) in percentEncoded ? raw : LinkParts.decoded(raw) }
        let fits = { (patterns: [AssociationPattern], raw: String) in
            patterns.contains { $0.matches(text(raw), caseSensitive: caseSensitive) }
        }
        if let path, !fits(path, parts.path) { return false }
        if let fragment, !fits(fragment, parts.fragment) { return false }
        switch query {
        case nil: return true
        case .whole(let patterns)?: return fits(patterns, parts.query)
        case .items(let wanted)?:
            let items = parts.items
            for (name, patterns) in wanted {
                let same = { (other: String) in
                    caseSensitive ? text(other) == name : text(other).lowercased() == name.lowercased()
                }
                let values = items.filter { same($0.name) }.map(\.value)
                // A missing item counts as "" (on Android it matches nothing), and every item of the name must match.
                if values.isEmpty && !missingItemIsEmpty { return false }
                guard (values.isEmpty ? [""] : values).allSatisfy({ fits(patterns, $0) }) else { return false }
            }
            return true
        }
    }
}
