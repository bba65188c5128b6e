package import LinkdRouting

extension RoutePattern {
    /// Whether some link matches both this pattern and `other`: the same scheme, host and port, and paths that fit
    /// one link segment by segment (a `{capture}` fits any one segment, a `{rest...}` one or more).
    package func overlaps(_ other: RoutePattern) -> Bool {
        guard scheme == other.scheme, host == other.host, port == other.port else { return false }
        var mine = segments[...]
        var theirs = other.segments[...]
        while let left = mine.first, let right = theirs.first {
            switch (left, right) {
            case (.rest, _), (_, .rest):
                return true
            case (.literal(let a), .literal(let b)) where a != b:
                return false
            default:
                mine = mine.dropFirst()
                theirs = theirs.dropFirst()
            }
        }
        return mine.isEmpty && theirs.isEmpty
    }
}
