extension Router {
    /// How many candidates an explanation names at most.
    public static var explanationLimit: Int { 3 }

    /// Why `link` matches none of the registered patterns: the nearest candidates, best first.
    ///
    /// For a link that does match, the candidates that did not are explained all the same. The explanation is
    /// worked out each time it is read, from the trie, so one that nobody reads costs nothing.
    public func explain(_ link: LinkURL) -> RouteExplanation {
        explanation(for: link, failures: [:])
    }

    func explanation(for link: LinkURL, failures: [Int: LinkRefusal]) -> RouteExplanation {
        RouteExplanation { [self] in nearest(to: link, failures: failures) }
    }

    /// The link as patterns read it and its nearest candidates: the patterns whose builders refused it, then
    /// those it got furthest along, in declaration order among equals.
    private func nearest(
        to link: LinkURL,
        failures: [Int: LinkRefusal]
    ) -> (link: String, candidates: [RouteExplanation.Candidate]) {
        let segments = link.withBytes { bytes in
            ((try? link.routingSegments(bytes)) ?? []).map { segment in
                switch segment {
                case .raw(let range): Array(bytes[range])
                case .decoded(let decoded): decoded
                }
            }
        }
        let host = link.host?.description
        var ranked = trie.partings(scheme: link.scheme, host: host, port: link.port, segments: segments)
        ranked += failures.keys.map { (Int.max, $0) }
        let texts = segments.map { String(decoding: $0, as: UTF8.self) }
        let nearest = ranked.sorted { ($0.score, -$0.entry) > ($1.score, -$1.entry) }
            .prefix(Self.explanationLimit)
            .compactMap { parting -> RouteExplanation.Candidate? in
                let pattern = entries[parting.entry].pattern
                if let refusal = failures[parting.entry] {
                    return RouteExplanation.Candidate(pattern: pattern.text, mismatch: .refused(refusal))
                }
                guard let (mismatch, _) = Self.mismatch(pattern, link, texts) else { return nil }
                return RouteExplanation.Candidate(pattern: pattern.text, mismatch: mismatch)
            }
        var text = link.scheme + ":"
        if let host { text += "//" + host + (link.port.map { ":" + String($0) } ?? "") }
        return (text + link.pathname, nearest)
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
            case .literal(let literal) where !literal.utf8.elementsEqual(segments[index].utf8):  // as the trie compares
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
