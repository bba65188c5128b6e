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

    struct Node: Sendable {
        var literals: [String: Int] = [:]
        var capture: Int?
        var terminal: [Int] = []
        var rest: [Int] = []
    }

    private(set) var entries: [Entry] = []
    private var nodes: [Node] = []
    private var roots: [String: Int] = [:]

    /// Creates a router with no routes.
    public init() {}

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
        let index = entries.count
        entries.append(Entry(pattern: pattern, build: build, print: print))
        var node = roots[pattern.authorityKey] ?? makeNode()
        roots[pattern.authorityKey] = node
        for segment in pattern.segments {
            switch segment {
            case .literal(let text):
                let child = nodes[node].literals[text] ?? makeNode()
                nodes[node].literals[text] = child
                node = child
            case .capture:
                let child = nodes[node].capture ?? makeNode()
                nodes[node].capture = child
                node = child
            case .rest:
                nodes[node].rest.append(index)
                return
            }
        }
        nodes[node].terminal.append(index)
    }

    private mutating func makeNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }

    /// The route for `link`.
    ///
    /// - Throws: the link's refusal (conflicting parameters, a builder's refusal of a claimed link), or
    ///   ``RouteError/unmatched(_:)`` with the nearest candidates when no pattern matches.
    public func route(_ link: LinkURL) throws(RouteError) -> Route {
        let parameters = try link.parameters()
        let segments = try Self.decodedSegments(of: link)
        var failures: [Int: LinkRefusal] = [:]
        if let host = link.host,
            let root = roots[RoutePattern.authorityKey(scheme: link.scheme, host: host.description, port: link.port)]
        {
            let context = Context(link: link, segments: segments, parameters: parameters)
            if let route = search(root, depth: 0, context, &failures) { return route }
        }
        let ownFault = failures.sorted { $0.key < $1.key }.first { $0.value.part != .path }
        if let refusal = ownFault?.value { throw .refused(refusal) }
        throw .unmatched(explanation(for: link, segments: segments, failures: failures))
    }

    /// Parses `text` strictly and routes it.
    ///
    /// - Throws: the parse's refusal, or what ``route(_:)-(LinkURL)`` throws.
    public func route(_ text: String) throws(RouteError) -> Route {
        try route(LinkURL(parsing: text))
    }

    private struct Context {
        let link: LinkURL
        let segments: [String]
        let parameters: LinkParameters
    }

    private func search(_ node: Int, depth: Int, _ context: Context, _ failures: inout [Int: LinkRefusal]) -> Route? {
        let current = nodes[node]
        if depth == context.segments.count {
            return firstBuilt(current.terminal, context, restFrom: nil, &failures)
        }
        if let child = current.literals[context.segments[depth]],
            let route = search(child, depth: depth + 1, context, &failures)
        {
            return route
        }
        if let child = current.capture, let route = search(child, depth: depth + 1, context, &failures) {
            return route
        }
        return firstBuilt(current.rest, context, restFrom: depth, &failures)
    }

    private func firstBuilt(
        _ candidates: [Int],
        _ context: Context,
        restFrom: Int?,
        _ failures: inout [Int: LinkRefusal]
    ) -> Route? {
        for index in candidates {
            let entry = entries[index]
            var captures: [String: String] = [:]
            for (position, segment) in entry.pattern.segments.enumerated() {
                switch segment {
                case .literal: continue
                case .capture(let name): captures[name] = context.segments[position]
                case .rest(let name):
                    captures[name] = context.segments[(restFrom ?? position)...].joined(separator: "/")
                }
            }
            let match = RouteMatch(
                link: context.link,
                pattern: entry.pattern,
                captures: captures,
                parameters: context.parameters
            )
            do {
                return try entry.build(match)
            } catch {
                failures[index] = error.refusal ?? LinkRefusal(.badValue, part: .path, error.description)
            }
        }
        return nil
    }

    /// The link's path segments, percent-decoded, without a trailing empty one.
    static func decodedSegments(of link: LinkURL) throws(RouteError) -> [String] {
        guard link.host != nil else { return [] }
        var raw = link.pathSegments
        if raw.last?.isEmpty == true { raw.removeLast() }
        var segments: [String] = []
        segments.reserveCapacity(raw.count)
        for segment in raw {
            guard let text = String(validating: PercentEncoding.decode(segment.utf8, plusAsSpace: false), as: UTF8.self)
            else { throw .refused(.invalidUTF8, part: .path, "a path segment does not decode to UTF-8") }
            segments.append(text)
        }
        return segments
    }
}
