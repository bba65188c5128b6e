/// A refusal: the reason, the part of the link it concerns, and a message for a person.
public struct LinkRefusal: Sendable, Hashable, CustomStringConvertible {
    /// Why the link was refused.
    public var reason: RefusalReason
    /// The part of the link the refusal concerns.
    public var part: LinkPart
    /// One short clause, with user-supplied values in single quotes and no trailing period.
    public var message: String

    /// Creates a refusal.
    public init(_ reason: RefusalReason, part: LinkPart, _ message: String) {
        self.reason = reason
        self.part = part
        self.message = message
    }

    public var description: String { message }
}

/// The error type of `LinkdRouting`: a link that is refused, or one that no route claims.
public enum RouteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The link is malformed, unsafe, or lacks what its route needs.
    case refused(LinkRefusal)
    /// The link is well formed, but no registered pattern matches it; the explanation names the nearest ones.
    case unmatched(RouteExplanation)
    /// A route pattern is not of the form `scheme://host[:port]/path` with well-formed `{captures}`.
    case invalidPattern(pattern: String, problem: String)

    /// Shorthand for ``refused(_:)``.
    public static func refused(_ reason: RefusalReason, part: LinkPart, _ message: String) -> RouteError {
        .refused(LinkRefusal(reason, part: part, message))
    }

    /// The refusal, when the link was refused rather than unmatched.
    public var refusal: LinkRefusal? {
        if case .refused(let refusal) = self { return refusal }
        return nil
    }

    public var description: String {
        switch self {
        case .refused(let refusal): refusal.message
        case .unmatched(let explanation): explanation.description
        case .invalidPattern(let pattern, let problem): "invalid pattern '\(pattern)': \(problem)"
        }
    }
}
