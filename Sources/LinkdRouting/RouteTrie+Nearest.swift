/// How an explanation finds the patterns nearest to a link that none matched, from the trie: the cost is that of
/// a lookup plus a few entries per node on the link's way, whatever the number of patterns.
///
/// A pattern's score is how far the link got along it: 0 when the schemes differ, 1 the hosts, 2 the ports, and
/// 3 + n when path segment n (0-based) is where they part. Patterns that match are not among them.
extension RouteTrie {
    /// A pattern that parts from the link, and how far the link got along it.
    typealias Parting = (score: Int, entry: Int)

    /// The first patterns of each score that part from the link (at most ``NearestEntries/limit`` from each place
    /// they are kept): the nearest few are among them.
    ///
    /// - Parameters:
    ///   - host: the link's host as ``LinkHost`` serialises it, `nil` for a link without one.
    ///   - segments: the link's path segments, percent-decoded.
    func partings(scheme: String, host: String?, port: UInt16?, segments: [[UInt8]]) -> [Parting] {
        var found: [Parting] = authorities.schemes.first(excluding: scheme).map { (0, $0) }
        let hosts = authorities.hostsByScheme[scheme]
        found += (hosts?.first(excluding: host) ?? []).map { (1, $0) }
        guard let host else { return found }
        let ports = authorities.portsByHost[scheme + "://" + host]
        found += (ports?.first(excluding: AuthorityEntries.group(of: port)) ?? []).map { (2, $0) }
        let key = RoutePattern.authorityKey(scheme: scheme, host: host, port: port)
        if let root = edges.find(Self.rootOwner, Array(key.utf8)) { walk(root, depth: 0, segments, &found) }
        return found
    }

    /// Adds the patterns that part from the link at node `node`, which the link's first `depth` segments reach.
    private func walk(_ node: Int, depth: Int, _ segments: [[UInt8]], _ found: inout [Parting]) {
        let score = 3 + depth
        let current = nodes[node]
        guard depth < segments.count else {
            // The link ends here: every pattern that goes on lacks a segment; those that end here match.
            found += firstEntries(current.rest).map { (score, $0) }
            if current.capture >= 0 { found += below[current.capture].subtree.map { (score, $0) } }
            found += below[node].literalChildren.first(excluding: nil).map { (score, $0) }
            return
        }
        // The link goes on: patterns that end here have no segment for it, a `{rest...}` here matches.
        found += firstEntries(current.terminal).map { (score, $0) }
        let literal = current.hasLiterals ? edges.find(node, segments[depth]) : nil
        found += below[node].literalChildren.first(excluding: literal).map { (score, $0) }
        if let literal { walk(literal, depth: depth + 1, segments, &found) }
        if current.capture >= 0 { walk(current.capture, depth: depth + 1, segments, &found) }
    }

    /// The first entries of the list at `head`.
    private func firstEntries(_ head: Int) -> [Int] {
        var entries: [Int] = []
        _ = each(head) { entry in
            entries.append(entry)
            return entries.count == NearestEntries<Int>.limit
        }
        return entries
    }
}

/// The first entries below a trie node: in all, and by literal child.
struct NodeEntries: Sendable {
    /// The first entries of the patterns that pass through the node or end at it.
    private(set) var subtree: [Int] = []
    /// The first entries below each literal child (the child's node is the group).
    var literalChildren = NearestEntries<Int>()

    /// Adds an entry that passes through the node.
    mutating func add(_ entry: Int) {
        if subtree.count < NearestEntries<Int>.limit { subtree.append(entry) }
    }
}

/// The first entries of each scheme, of each host by scheme, and of each port by scheme and host.
struct AuthorityEntries: Sendable {
    /// By scheme.
    private(set) var schemes = NearestEntries<String>()
    /// By host, for each scheme.
    private(set) var hostsByScheme: [String: NearestEntries<String>] = [:]
    /// By port (``group(of:)``), for each `scheme://host`.
    private(set) var portsByHost: [String: NearestEntries<Int>] = [:]

    /// The group of a port: the port, or -1 for none.
    static func group(of port: UInt16?) -> Int { port.map(Int.init) ?? -1 }

    /// Adds `pattern`'s entry.
    mutating func add(_ pattern: RoutePattern, entry: Int) {
        schemes.add(entry, group: pattern.scheme)
        hostsByScheme[pattern.scheme, default: NearestEntries()].add(entry, group: pattern.host)
        portsByHost[pattern.scheme + "://" + pattern.host, default: NearestEntries()].add(
            entry,
            group: Self.group(of: pattern.port)
        )
    }
}
