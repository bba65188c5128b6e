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

    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let pattern: RoutePattern
        @usableFromInline let build: Builder
        let print: Printer?
    }

    /// Which of several matching patterns wins.
    public enum Precedence: Sendable {
        /// A literal segment beats a `{capture}`, which beats a `{rest...}`; then declaration order.
        case specificity
        /// The pattern declared first, whatever its segments (how apps.d claims are ranked).
        case declarationOrder
    }

    @usableFromInline private(set) var entries: [Entry] = []
    @usableFromInline private(set) var trie = RouteTrie()
    @usableFromInline let precedence: Precedence

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
    @inlinable
    public func route(_ link: LinkURL) throws(RouteError) -> Route {
        try link.checkParameters()  // a link whose parameters are refused goes no further
        let inDeclarationOrder = precedence == .declarationOrder
        var failures: [(entry: Int, refusal: LinkRefusal)] = []
        var index = 0
        while let candidate = try trie.candidate(index, for: link, inDeclarationOrder: inDeclarationOrder) {
            let match = RouteMatch(link, candidate, pattern: entries[candidate.entry].pattern)
            do {
                return try entries[candidate.entry].build(match)
            } catch {
                failures.append((candidate.entry, error.builderRefusal))
            }
            index += 1
        }
        throw unmatched(link, failures: Dictionary(failures, uniquingKeysWith: { first, _ in first }))
    }

    /// What `route` throws when no builder gave a route: the first refusal that is the link's fault (not its
    /// path's), else the nearest candidates.
    @usableFromInline
    func unmatched(_ link: LinkURL, failures: [Int: LinkRefusal]) -> RouteError {
        if let ownFault = failures.sorted(by: { $0.key < $1.key }).first(where: { $0.value.part != .path }) {
            return .refused(ownFault.value)
        }
        return .unmatched(explanation(for: link, failures: failures))
    }

    /// Parses `text` strictly and routes it.
    ///
    /// - Throws: the parse's refusal, or what ``route(_:)-(LinkURL)`` throws.
    @inlinable
    public func route(_ text: String) throws(RouteError) -> Route {
        try route(LinkURL(parsing: text))
    }

}
