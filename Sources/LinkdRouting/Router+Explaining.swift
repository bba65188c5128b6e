extension Router {
    /// How many candidates an explanation names at most.
    public static var explanationLimit: Int { 3 }

    /// Why `link` matches none of the registered patterns: the nearest candidates, best first.
    ///
    /// For a link that does match, the candidates that did not are explained all the same.
    public func explain(_ link: LinkURL) -> RouteExplanation {
        explanation(for: link, failures: [:])
    }

    func explanation(for link: LinkURL, failures: [Int: LinkRefusal]) -> RouteExplanation {
        let segments = link.withBytes { bytes in
            ((try? link.routingSegments(bytes)) ?? []).map { segment in
                switch segment {
                case .raw(let range): String(decoding: bytes[range], as: UTF8.self)
                case .decoded(let decoded): String(decoding: decoded, as: UTF8.self)
                }
            }
        }
        var ranked: [(score: Int, candidate: RouteExplanation.Candidate)] = []
        for (index, entry) in entries.enumerated() {
            let mismatch: RouteExplanation.Mismatch
            let score: Int
            if let refusal = failures[index] {
                (mismatch, score) = (.refused(refusal), Int.max)
            } else if let found = Self.mismatch(entry.pattern, link, segments) {
                (mismatch, score) = found
            } else {
                continue
            }
            ranked.append((score, RouteExplanation.Candidate(pattern: entry.pattern.text, mismatch: mismatch)))
        }
        let nearest = ranked.enumerated()
            .sorted { ($0.element.score, -$0.offset) > ($1.element.score, -$1.offset) }
            .prefix(Self.explanationLimit)
            .map(\.element.candidate)
        var text = link.scheme + ":"
        if let host = link.host { text += "//" + host.description + (link.port.map { ":" + String($0) } ?? "") }
        return RouteExplanation(link: text + link.pathname, candidates: nearest)
    }

    /// The first difference between `pattern` and the link, and how far the link got (higher is nearer).
    private static func mismatch(
        _ pattern: RoutePattern,
        _ link: LinkURL,
        _ segments: [String]
    ) -> (RouteExplanation.Mismatch, Int)? {
        guard pattern.scheme == link.scheme else { return (.scheme(expected: pattern.scheme, actual: link.scheme), 0) }
        let host = link.host?.description ?? ""
        guard pattern.host == host, link.host != nil else { return (.host(expected: pattern.host, actual: host), 1) }
        guard pattern.port == link.port else {
            return (.port(expected: pattern.port.map { String($0) } ?? "", actual: link.portText), 2)
        }
        for (index, segment) in pattern.segments.enumerated() {
            guard index < segments.count else {
                return (.missingSegment(index: index + 1, expected: text(of: segment)), 3 + index)
            }
            switch segment {
            case .literal(let literal) where literal != segments[index]:
                return (.segment(index: index + 1, expected: literal, actual: segments[index]), 3 + index)
            case .rest: return nil
            case .literal, .capture: continue
            }
        }
        guard segments.count <= pattern.segments.count else {
            let index = pattern.segments.count
            return (.extraSegment(index: index + 1, actual: segments[index]), 3 + index)
        }
        return nil
    }

    private static func text(of segment: RoutePattern.Segment) -> String {
        switch segment {
        case .literal(let literal): literal
        case .capture(let name): "{\(name)}"
        case .rest(let name): "{\(name)...}"
        }
    }
}
