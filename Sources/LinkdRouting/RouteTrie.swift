/// The non-generic core of ``Router``: a trie of pattern segments that finds, for a link, the registered
/// patterns that fit it, in precedence order.
///
/// At each segment a literal beats a `{capture}`, which beats a `{rest...}`; equal patterns keep declaration order.
@usableFromInline
struct RouteTrie: Sendable {
    /// A node: plain numbers, so that walking the trie retains nothing.
    struct Node: Sendable {
        /// The child for any segment, or -1.
        var capture = -1
        /// The first entry (in `lists`) of the patterns that end here, or -1.
        var terminal = -1
        /// The first entry (in `lists`) of the patterns whose `{rest...}` starts here, or -1.
        var rest = -1
        /// Whether some child hangs off a literal segment (in `edges`).
        var hasLiterals = false
    }

    /// A path segment of a link: a range of its `href`, or its percent-decoded bytes when it held a `%`.
    enum Segment: Sendable {
        case raw(Range<Int>)
        case decoded([UInt8])
    }

    /// A pattern that fits, and the segment its `{rest...}` capture starts at.
    @usableFromInline
    struct Candidate {
        @usableFromInline var entry: Int
        var restFrom: Int?
    }

    /// The owner of the authority keys in `edges`: the roots hang off no node.
    static let rootOwner = -1

    private(set) var nodes: [Node] = []
    /// Child nodes by parent and literal segment; the roots by authority (`scheme://host:port`).
    private(set) var edges = ByteKeyTable()
    /// Linked lists of entries, in declaration order: each element's entry and the index of the next, or -1.
    private var lists: [(entry: Int, next: Int)] = []
    /// For each node, the first entries below it: what an explanation reads, never a lookup.
    private(set) var below: [NodeEntries] = []
    /// The first entries of each scheme, host and port: the explanation's candidates from other authorities.
    private(set) var authorities = AuthorityEntries()

    /// Adds entry `entry` with `pattern`.
    mutating func insert(_ pattern: RoutePattern, entry: Int) {
        authorities.add(pattern, entry: entry)
        var node = child(of: Self.rootOwner, Array(pattern.authorityKey.utf8))
        below[node].add(entry)
        for segment in pattern.segments {
            switch segment {
            case .literal(let text):
                nodes[node].hasLiterals = true
                let literal = child(of: node, Array(text.utf8))
                below[node].literalChildren.add(entry, group: literal)
                node = literal
            case .capture:
                if nodes[node].capture < 0 { nodes[node].capture = makeNode() }
                node = nodes[node].capture
            case .rest:
                nodes[node].rest = appending(entry, to: nodes[node].rest)
                return
            }
            below[node].add(entry)
        }
        nodes[node].terminal = appending(entry, to: nodes[node].terminal)
    }

    /// The child of `parent` for `key`, made when missing.
    private mutating func child(of parent: Int, _ key: [UInt8]) -> Int {
        if let existing = edges.find(parent, key) { return existing }
        let node = makeNode()
        edges.set(parent, key, to: node)
        return node
    }

    /// A new node, with nothing below it yet.
    private mutating func makeNode() -> Int {
        nodes.append(Node())
        below.append(NodeEntries())
        return nodes.count - 1
    }

    /// Appends `entry` to the list starting at `head` (-1: empty); returns the list's head.
    private mutating func appending(_ entry: Int, to head: Int) -> Int {
        lists.append((entry, -1))
        guard head >= 0 else { return lists.count - 1 }
        var last = head
        while lists[last].next >= 0 { last = lists[last].next }
        lists[last].next = lists.count - 1
        return head
    }

    /// Calls `body` with each pattern that fits `path`, best first, until `body` answers `true`.
    func forEachCandidate(
        _ bytes: UnsafeBufferPointer<UInt8>,
        authority: Range<Int>,
        path: RoutingPath,
        _ body: (Candidate) -> Bool
    ) {
        guard let root = edges.find(Self.rootOwner, UnsafeBufferPointer(rebasing: bytes[authority])) else { return }
        _ = visit(root, depth: 0, position: path.start, path, body)
    }

    /// Walks the trie from `node`, the path's segment `depth` starting at `position`; `true` when `body` stopped
    /// the walk.
    private func visit(
        _ node: Int,
        depth: Int,
        position: Int,
        _ path: RoutingPath,
        _ body: (Candidate) -> Bool
    ) -> Bool {
        let current = nodes[node]
        guard let segment = path.segment(from: position) else {
            return each(current.terminal) { body(Candidate(entry: $0, restFrom: nil)) }
        }
        let next = segment.upperBound + 1
        if current.hasLiterals {
            let child: Int? =
                if let decoded = path.decoded {
                    edges.find(node, decoded[depth])
                } else {
                    edges.find(node, UnsafeBufferPointer(rebasing: path.bytes[segment]))
                }
            if let child, visit(child, depth: depth + 1, position: next, path, body) { return true }
        }
        if current.capture >= 0, visit(current.capture, depth: depth + 1, position: next, path, body) {
            return true
        }
        return each(current.rest) { body(Candidate(entry: $0, restFrom: depth)) }
    }

    /// Calls `body` with each entry of the list at `head` until it answers `true`; whether it did.
    func each(_ head: Int, _ body: (Int) -> Bool) -> Bool {
        var index = head
        while index >= 0 {
            if body(lists[index].entry) { return true }
            index = lists[index].next
        }
        return false
    }
}

/// A link's path as the router reads it: segments found one at a time in `href`, without a trailing empty one,
/// and — only when the path holds a `%` — every segment's decoded bytes.
struct RoutingPath {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the first segment starts.
    let start: Int
    /// Where the path ends.
    let end: Int
    /// Each segment percent-decoded, when the path holds a `%`.
    let decoded: [[UInt8]]?

    /// The path of `link`, whose `href` is `bytes`.
    ///
    /// - Throws: `invalid_utf8` (part `path`) for a segment whose percent-decoding is not UTF-8.
    init(_ link: borrowing LinkURL, _ bytes: UnsafeBufferPointer<UInt8>) throws(RouteError) {
        self.bytes = bytes
        let path = link.layout.pathRange
        end = path.upperBound
        start = path.count > 1 ? path.lowerBound + 1 : path.upperBound  // "" and "/" have no segments
        guard bytes[path].contains(UInt8(ascii: "%")) else {
            decoded = nil
            return
        }
        decoded = try link.routingSegments(bytes).map { segment in
            switch segment {
            case .raw(let range): Array(bytes[range])
            case .decoded(let decoded): decoded
            }
        }
    }

    /// The segment starting at `position`, or `nil` when the path has no more.
    func segment(from position: Int) -> Range<Int>? {
        guard position < end else { return nil }
        var index = position
        while index < end && bytes[index] != UInt8(ascii: "/") { index += 1 }
        return position..<index
    }

    /// The decoded text of segment `depth`, which stands at `range`.
    func text(_ range: Range<Int>, depth: Int) -> String {
        if let decoded { return String(decoding: decoded[depth], as: UTF8.self) }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// The segments from `depth`, which starts at `position`, to the end, joined with `/`.
    func rest(from position: Int, depth: Int) -> String {
        if let decoded { return decoded[depth...].map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/") }
        var last = end
        if last > position && bytes[last - 1] == UInt8(ascii: "/") { last -= 1 }  // the trailing empty segment
        return String(decoding: bytes[position..<last], as: UTF8.self)
    }
}

extension LinkURL {
    /// The path's segments for routing, without a trailing empty one; `nil` for a link without a host.
    ///
    /// - Throws: `invalid_utf8` (part `path`) for a segment whose percent-decoding is not UTF-8.
    func routingSegments(_ bytes: UnsafeBufferPointer<UInt8>) throws(RouteError) -> [RouteTrie.Segment] {
        guard layout.hostKind != nil else { return [] }
        let path = layout.pathRange
        guard path.count > 1 else { return [] }  // "" or "/"
        var segments: [RouteTrie.Segment] = []
        var start = path.lowerBound + 1
        var index = start
        var hasPercent = false
        while index <= path.upperBound {
            if index == path.upperBound || bytes[index] == UInt8(ascii: "/") {
                if index == path.upperBound && start == index { break }  // trailing "/"
                if hasPercent {
                    let decoded = PercentEncoding.decode(bytes[start..<index], plusAsSpace: false)
                    guard String(validating: decoded, as: UTF8.self) != nil else {
                        throw .refused(.invalidUTF8, part: .path, "a path segment does not decode to UTF-8")
                    }
                    segments.append(.decoded(decoded))
                } else {
                    segments.append(.raw(start..<index))
                }
                start = index + 1
                hasPercent = false
            } else if bytes[index] == UInt8(ascii: "%") {
                hasPercent = true
            }
            index += 1
        }
        return segments
    }
}
