/// Why a link matched no route: the nearest registered patterns and where each one parted from the link.
///
/// This is what a person sees when a click does nothing, so each mismatch names the part and both values.
///
/// A router's explanation is worked out when it is read (each time), so a miss nobody explains costs no more than
/// a hit.
public struct RouteExplanation: Sendable, Hashable, CustomStringConvertible {
    private typealias Parts = (link: String, candidates: [Candidate])

    private enum Content: Sendable {
        case given(link: String, candidates: [Candidate])
        case deferred(@Sendable () -> Parts)
    }

    private var content: Content

    private var parts: Parts {
        switch content {
        case .given(let link, let candidates): (link, candidates)
        case .deferred(let make): make()
        }
    }

    /// The link as far as patterns read it: scheme, host, port and path (no query or fragment, so no tokens).
    public var link: String {
        get { parts.link }
        set { content = .given(link: newValue, candidates: candidates) }
    }

    /// The nearest candidates, best first; empty when nothing is registered.
    public var candidates: [Candidate] {
        get { parts.candidates }
        set { content = .given(link: link, candidates: newValue) }
    }

    /// Creates an explanation.
    public init(link: String, candidates: [Candidate]) {
        content = .given(link: link, candidates: candidates)
    }

    /// An explanation that `make` works out when it is read.
    init(_ make: @escaping @Sendable () -> (link: String, candidates: [Candidate])) {
        content = .deferred(make)
    }

    public static func == (lhs: RouteExplanation, rhs: RouteExplanation) -> Bool {
        let (left, right) = (lhs.parts, rhs.parts)
        return left.link == right.link && left.candidates == right.candidates
    }

    public func hash(into hasher: inout Hasher) {
        let parts = parts
        hasher.combine(parts.link)
        hasher.combine(parts.candidates)
    }

    /// One registered pattern and why it did not match.
    public struct Candidate: Sendable, Hashable, CustomStringConvertible {
        /// The pattern as registered.
        public var pattern: String
        /// Where the pattern and the link parted.
        public var mismatch: Mismatch

        /// Creates a candidate.
        public init(pattern: String, mismatch: Mismatch) {
            self.pattern = pattern
            self.mismatch = mismatch
        }

        public var description: String { "'\(pattern)': \(mismatch)" }
    }

    /// The first difference between a pattern and a link.
    public enum Mismatch: Sendable, Hashable, CustomStringConvertible {
        /// The schemes differ.
        case scheme(expected: String, actual: String)
        /// The hosts differ (or one of them has none).
        case host(expected: String, actual: String)
        /// The ports differ after default-port normalisation.
        case port(expected: String, actual: String)
        /// Path segment `index` (1-based) differs from the pattern's static segment.
        case segment(index: Int, expected: String, actual: String)
        /// The link's path ends before the pattern's segment `index` (1-based).
        case missingSegment(index: Int, expected: String)
        /// The link's path goes on past the pattern, from segment `index` (1-based).
        case extraSegment(index: Int, actual: String)
        /// A capture did not convert to the type its route needs.
        case capture(name: String, value: String, type: String)
        /// The route's own builder refused the match.
        case refused(LinkRefusal)

        public var description: String {
            switch self {
            case .scheme(let expected, let actual): "scheme is '\(actual)', not '\(expected)'"
            case .host(let expected, let actual): "host is '\(actual)', not '\(expected)'"
            case .port(let expected, let actual): "port is '\(actual)', not '\(expected)'"
            case .segment(let index, let expected, let actual): "segment \(index) is '\(actual)', not '\(expected)'"
            case .missingSegment(let index, let expected): "segment \(index) ('\(expected)') is missing"
            case .extraSegment(let index, let actual): "segment \(index) ('\(actual)') is not in the pattern"
            case .capture(let name, let value, let type): "capture '\(name)' is not a valid \(type): '\(value)'"
            case .refused(let refusal): refusal.message
            }
        }
    }

    public var description: String {
        let (link, candidates) = parts
        guard !candidates.isEmpty else { return "no route for '\(link)'" }
        return "no route for '\(link)'; nearest: " + candidates.map(\.description).joined(separator: "; ")
    }
}
