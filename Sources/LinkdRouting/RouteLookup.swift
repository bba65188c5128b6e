/// What ``Router/route(_:)-(LinkURL)`` needs that does not depend on the route type, compiled once.
///
/// The router's `route` is inlined into the code that calls it, so that the route type is known there and the
/// lookup costs no generic metadata; everything it calls is here.
extension RouteTrie {
    /// The `index`-th pattern that fits `link`: best first, or in the order the patterns were declared.
    ///
    /// The first candidate is found without collecting the others; a link whose first candidate's builder
    /// refuses it (rare) walks the trie again for each further one.
    ///
    /// - Throws: `invalid_utf8` (part `path`) for a path segment whose percent-decoding is not UTF-8.
    @usableFromInline
    func candidate(_ index: Int, for link: LinkURL, inDeclarationOrder: Bool) throws(RouteError) -> Candidate? {
        guard link.layout.hostKind != nil else { return nil }
        let authority = 0..<link.layout.pathRange.lowerBound
        return try link.withBytes { (bytes) throws(RouteError) -> Candidate? in
            let path = try RoutingPath(link, bytes)
            if inDeclarationOrder {
                var all: [Candidate] = []
                forEachCandidate(bytes, authority: authority, path: path) { candidate in
                    all.append(candidate)
                    return false
                }
                all.sort { $0.entry < $1.entry }
                return index < all.count ? all[index] : nil
            }
            var seen = 0
            var found: Candidate?
            forEachCandidate(bytes, authority: authority, path: path) { candidate in
                seen += 1
                guard seen > index else { return false }
                found = candidate
                return true
            }
            return found
        }
    }
}

extension RouteMatch {
    /// The match of `candidate`, whose pattern is `pattern`.
    @usableFromInline
    init(_ link: LinkURL, _ candidate: RouteTrie.Candidate, pattern: RoutePattern) {
        guard pattern.hasCaptures else {
            self.init(link: link, pattern: pattern, captures: [:])
            return
        }
        let captures = link.withBytes { bytes in
            // The router read this path before it found the candidate: it decodes.
            guard let path = try? RoutingPath(link, bytes) else { return [String: String]() }
            return Self.captures(of: pattern, path, restFrom: candidate.restFrom)
        }
        self.init(link: link, pattern: pattern, captures: captures)
    }

    /// Each capture of `pattern` by name, read from `path`; empty (and free) for a pattern without captures.
    private static func captures(of pattern: RoutePattern, _ path: RoutingPath, restFrom: Int?) -> [String: String] {
        var captures: [String: String] = [:]
        var position = path.start
        for (depth, segment) in pattern.segments.enumerated() {
            switch segment {
            case .literal:
                position = (path.segment(from: position)?.upperBound ?? path.end) + 1
            case .capture(let name):
                let range = path.segment(from: position) ?? position..<position
                captures[name] = path.text(range, depth: depth)
                position = range.upperBound + 1
            case .rest(let name):
                captures[name] = path.rest(from: position, depth: restFrom ?? depth)
            }
        }
        return captures
    }
}

extension RouteError {
    /// A builder's refusal as the router records it: a refusal without a part counts as the path's.
    @usableFromInline
    var builderRefusal: LinkRefusal { refusal ?? LinkRefusal(.badValue, part: .path, description) }
}
