import LinkdRouting
import Testing

/// The explanation found from the trie names the same candidates, in the same order, as comparing the link with
/// every pattern does (the reference below, written from the rules the explanation states).
@Suite struct RouteExplanationTests {
    private static let authorities = ["app1://h1", "app1://h1:81", "app1://h2", "app2://h1", "app2://h2:82"]
    private static let segments = ["x", "y", "{c}", "{r...}", "%C3%A9"]

    /// How far `link` gets along `pattern` (higher is nearer), or `nil` when it matches.
    private static func score(_ pattern: RoutePattern, _ link: LinkURL) -> Int? {
        guard pattern.scheme == link.scheme else { return 0 }
        guard let host = link.host, pattern.host == host.description else { return 1 }
        guard pattern.port == link.port else { return 2 }
        let parts = link.pathSegments.filter { !$0.isEmpty }.map(\.removingPercentEncodingForTest)
        for (index, segment) in pattern.segments.enumerated() {
            guard index < parts.count else { return 3 + index }
            switch segment {
            case .literal(let literal) where !literal.utf8.elementsEqual(parts[index].utf8): return 3 + index
            case .rest: return nil
            case .literal, .capture: continue
            }
        }
        return parts.count > pattern.segments.count ? 3 + pattern.segments.count : nil
    }

    private static func reference(_ patterns: [RoutePattern], _ link: LinkURL) -> [String] {
        let scored = patterns.enumerated().compactMap { index, pattern in
            score(pattern, link).map { (score: $0, index: index, text: pattern.text) }
        }
        return scored.sorted { ($0.score, -$0.index) > ($1.score, -$1.index) }.prefix(3).map(\.text)
    }

    @Test func namesTheCandidatesThatComparingWithEveryPatternNames() throws {
        var generator = SplitMix64(seed: 20_261_201)
        var checked = 0
        for _ in 0..<300 {
            var router = Router<Int>()
            var patterns: [RoutePattern] = []
            for index in 0..<Int(generator.next() % 40 + 1) {
                var text = Self.authorities[Int(generator.next() % 5)]
                for position in 0..<Int(generator.next() % 4) {
                    let segment = Self.segments[Int(generator.next() % 5)]
                    if segment == "{c}" { text += "/{c\(position)}" } else { text += "/" + segment }
                    if segment == "{r...}" { break }
                }
                let pattern = try RoutePattern(text)
                patterns.append(pattern)
                router.add(pattern) { _ throws(RouteError) in index }
            }
            for _ in 0..<20 {
                var text = Self.authorities[Int(generator.next() % 5)]
                if generator.next() % 10 == 0 { text = "app1:x" }
                for _ in 0..<Int(generator.next() % 5) {
                    text += "/" + ["x", "y", "z", "%C3%A9", "e%CC%81"][Int(generator.next() % 5)]
                }
                let link = try LinkURL(parsing: text)
                #expect(router.explain(link).candidates.map(\.pattern) == Self.reference(patterns, link), "\(text)")
                checked += 1
            }
        }
        #expect(checked == 6_000)
    }

    @Test func aMissExplainsItselfOnlyWhenRead() throws {
        var router = Router<Int>()
        try router.add("myapp://note/{id}") { _ throws(RouteError) in 1 }
        do {
            _ = try router.route("myapp://note")
            Issue.record("a link without an id routed")
        } catch {
            guard case .unmatched(var explanation) = error else { throw error }
            #expect(
                explanation.description
                    == "no route for 'myapp://note'; nearest: 'myapp://note/{id}': segment 1 ('{id}') is missing"
            )
            explanation.candidates = []
            #expect(explanation.description == "no route for 'myapp://note'")
            #expect(explanation == RouteExplanation(link: "myapp://note", candidates: []))
        }
    }
}

extension StringProtocol {
    /// The percent-decoding of a path segment (UTF-8), without Foundation.
    fileprivate var removingPercentEncodingForTest: String {
        var bytes: [UInt8] = []
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex),
                let low = utf8.index(index, offsetBy: 2, limitedBy: utf8.endIndex), low < utf8.endIndex,
                let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index = utf8.index(index, offsetBy: 3)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
