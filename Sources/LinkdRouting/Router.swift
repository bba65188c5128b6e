/// Routes links to typed values through a trie of ``RoutePattern``s.
///
/// Precedence at each path segment: a literal beats a `{capture}`, which beats a `{rest...}`; among equal patterns,
/// declaration order. A builder that refuses a match because of its path (a capture that does not convert) makes
/// the router try the next candidate. Lookup walks one trie branch per segment, so its cost does not grow with
/// the number of routes.
///
/// ```swift
/// var router = Router<AppRoute>()
/// try router.add("myapp://note/{id}") { match throws(RouteError) in .note(try match.capture("id")) }
/// let route = try router.route(LinkURL(parsing: "myapp://note/7"))  // .note(7)
/// ```
public struct Router<Route: Sendable>: Sendable {
    /// Builds a route from a match; a refusal of part `path` counts as a mismatch, any other is the link's fault.
    public typealias Builder = @Sendable (RouteMatch) throws(RouteError) -> Route
    /// Gives the values a route prints back with, or `nil` when the route is not this pattern's.
    public typealias Printer = @Sendable (Route) -> RouteValues?

    struct Entry: Sendable {
        let pattern: RoutePattern
        let build: Builder
        let print: Printer?
    }

    /// Which of several matching patterns wins.
    public enum Precedence: Sendable {
        /// A literal segment beats a `{capture}`, which beats a `{rest...}`; then declaration order.
        case specificity
        /// The pattern declared first, whatever its segments (how apps.d claims are ranked).
        case declarationOrder
    }

    private(set) var entries: [Entry] = []
    private var trie = RouteTrie()
    private let precedence: Precedence

    /// Creates a router with no routes.
    public init(precedence: Precedence = .specificity) {
        self.precedence = precedence
    }

    /// The registered patterns, in declaration order.
    public var patterns: [RoutePattern] { entries.map(\.pattern) }

    /// Registers `pattern`, built by `build` and, when `print` is given, printed back by it.
    ///
    /// - Throws: ``RouteError/invalidPattern(pattern:problem:)`` when the pattern does not parse.
    public mutating func add(
        _ pattern: String,
        build: @escaping Builder,
        print: Printer? = nil
    ) throws(RouteError) {
        add(try RoutePattern(pattern), build: build, print: print)
    }

    /// Registers a parsed pattern.
    public mutating func add(_ pattern: RoutePattern, build: @escaping Builder, print: Printer? = nil) {
        trie.insert(pattern, entry: entries.count)
        entries.append(Entry(pattern: pattern, build: build, print: print))
    }

    /// The route for `link`.
    ///
    /// - Throws: the link's refusal (conflicting parameters, a builder's refusal of a claimed link), or
    ///   ``RouteError/unmatched(_:)`` with the nearest candidates when no pattern matches.
    public func route(_ link: LinkURL) throws(RouteError) -> Route {
        let parameters = try link.parameters()
        let lookup = link.withBytes { bytes -> Result<([RouteTrie.Candidate], [String]), RouteError> in
            do throws(RouteError) {
                let segments = try link.routingSegments(bytes)
                guard link.layout.hostKind != nil else { return .success(([], [])) }
                let authority = 0..<link.layout.pathRange.lowerBound
                let candidates = trie.candidates(bytes, authority: authority, segments: segments)
                let texts = candidates.isEmpty ? [] : segments.map { Self.text(of: $0, in: bytes) }
                return .success((candidates, texts))
            } catch {
                return .failure(error)
            }
        }
        var (candidates, segments) = try lookup.get()
        if precedence == .declarationOrder { candidates.sort { $0.entry < $1.entry } }
        var failures: [Int: LinkRefusal] = [:]
        for candidate in candidates {
            let entry = entries[candidate.entry]
            let match = RouteMatch(
                link: link,
                pattern: entry.pattern,
                captures: Self.captures(of: entry.pattern, segments: segments, restFrom: candidate.restFrom),
                parameters: parameters
            )
            do {
                return try entry.build(match)
            } catch {
                failures[candidate.entry] = error.refusal ?? LinkRefusal(.badValue, part: .path, error.description)
            }
        }
        let ownFault = failures.sorted { $0.key < $1.key }.first { $0.value.part != .path }
        if let refusal = ownFault?.value { throw .refused(refusal) }
        throw .unmatched(explanation(for: link, failures: failures))
    }

    /// Parses `text` strictly and routes it.
    ///
    /// - Throws: the parse's refusal, or what ``route(_:)-(LinkURL)`` throws.
    public func route(_ text: String) throws(RouteError) -> Route {
        try route(LinkURL(parsing: text))
    }

    private static func text(of segment: RouteTrie.Segment, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch segment {
        case .raw(let range): String(decoding: bytes[range], as: UTF8.self)
        case .decoded(let decoded): String(decoding: decoded, as: UTF8.self)
        }
    }

    private static func captures(of pattern: RoutePattern, segments: [String], restFrom: Int?) -> [String: String] {
        var captures: [String: String] = [:]
        for (position, segment) in pattern.segments.enumerated() {
            switch segment {
            case .literal: continue
            case .capture(let name): captures[name] = segments[position]
            case .rest(let name): captures[name] = segments[(restFrom ?? position)...].joined(separator: "/")
            }
        }
        return captures
    }
}
