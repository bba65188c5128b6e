/// The non-generic core of ``Router``: a trie of pattern segments that finds, for a link, the registered
/// patterns that fit it, in precedence order.
///
/// At each segment a literal beats a `{capture}`, which beats a `{rest...}`; equal patterns keep declaration order.
struct RouteTrie: Sendable {
    struct Node: Sendable {
        var literals = ByteKeyTable()
        var capture: Int?
        var terminal: [Int] = []
        var rest: [Int] = []
    }

    /// A path segment of a link: a range of its `href`, or its percent-decoded bytes when it held a `%`.
    enum Segment: Sendable {
        case raw(Range<Int>)
        case decoded([UInt8])
    }

    /// A pattern that fits, and the segment its `{rest...}` capture starts at.
    struct Candidate {
        var entry: Int
        var restFrom: Int?
    }

    private var nodes: [Node] = []
    private var roots = ByteKeyTable()

    /// Adds entry `entry` with `pattern`.
    mutating func insert(_ pattern: RoutePattern, entry: Int) {
        let key = Array(pattern.authorityKey.utf8)
        var node = roots.find(key) ?? makeNode()
        roots.set(key, to: node)
        for segment in pattern.segments {
            switch segment {
            case .literal(let text):
                let child = nodes[node].literals.find(Array(text.utf8)) ?? makeNode()
                nodes[node].literals.set(Array(text.utf8), to: child)
                node = child
            case .capture:
                let child = nodes[node].capture ?? makeNode()
                nodes[node].capture = child
                node = child
            case .rest:
                nodes[node].rest.append(entry)
                return
            }
        }
        nodes[node].terminal.append(entry)
    }

    private mutating func makeNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }

    /// The patterns that fit a link whose `href` is `bytes`, best first.
    func candidates(_ bytes: UnsafeBufferPointer<UInt8>, authority: Range<Int>, segments: [Segment]) -> [Candidate] {
        guard let root = roots.find(UnsafeBufferPointer(rebasing: bytes[authority])) else { return [] }
        var found: [Candidate] = []
        collect(root, depth: 0, bytes, segments, into: &found)
        return found
    }

    private func collect(
        _ node: Int,
        depth: Int,
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ segments: [Segment],
        into found: inout [Candidate]
    ) {
        let current = nodes[node]
        guard depth < segments.count else {
            for entry in current.terminal { found.append(Candidate(entry: entry, restFrom: nil)) }
            return
        }
        if !current.literals.isEmpty {
            let child: Int? =
                switch segments[depth] {
                case .raw(let range): current.literals.find(UnsafeBufferPointer(rebasing: bytes[range]))
                case .decoded(let decoded): current.literals.find(decoded)
                }
            if let child { collect(child, depth: depth + 1, bytes, segments, into: &found) }
        }
        if let child = current.capture { collect(child, depth: depth + 1, bytes, segments, into: &found) }
        for entry in current.rest { found.append(Candidate(entry: entry, restFrom: depth)) }
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
