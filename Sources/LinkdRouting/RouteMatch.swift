/// What a route's builder gets when its pattern matches a link: the captures, the parameters, and the link.
public struct RouteMatch: Sendable {
    /// The matched link.
    public let link: LinkURL
    /// The pattern that matched.
    public let pattern: RoutePattern
    /// Each capture's percent-decoded value by name; a `{rest...}` capture holds its segments joined with `/`.
    public let captures: [String: String]
    /// The link's decoded query and fragment parameters (the router checked them before it matched the link).
    public var parameters: LinkParameters { LinkParameters(checked: link) }

    /// The capture `name` converted to `T`.
    ///
    /// - Throws: `bad_value` (part `path`) naming the capture, its value and `T` when it does not convert;
    ///   the router then tries the next candidate.
    public func capture<T: CaptureConvertible>(_ name: String, as type: T.Type = T.self) throws(RouteError) -> T {
        guard let text = captures[name] else {
            preconditionFailure("pattern '\(pattern)' has no capture '\(name)'")
        }
        guard let value = T(capture: text) else {
            throw .refused(.badValue, part: .path, "capture '\(name)' is not a valid \(T.captureTypeName): '\(text)'")
        }
        return value
    }

    /// The value of parameter `name`, or `nil` when the link does not carry it.
    public func parameter(_ name: String) -> String? { parameters[name] }
}

/// What a route prints back to: the values for its pattern's captures and the parameters to add.
public struct RouteValues: Sendable, Hashable {
    /// The text of each capture, before percent-encoding; a `{rest...}` capture may hold `/`.
    public var captures: [String: String]
    /// Query parameters, in order.
    public var query: [(name: String, value: String)] {
        get { queryItems.map { ($0.name, $0.value) } }
        set { queryItems = newValue.map { Item(name: $0.name, value: $0.value) } }
    }
    /// Fragment parameters, in order.
    public var fragment: [(name: String, value: String)] {
        get { fragmentItems.map { ($0.name, $0.value) } }
        set { fragmentItems = newValue.map { Item(name: $0.name, value: $0.value) } }
    }

    private struct Item: Sendable, Hashable {
        var name: String
        var value: String
    }

    private var queryItems: [Item] = []
    private var fragmentItems: [Item] = []

    /// Creates route values.
    public init(
        captures: [String: any CaptureConvertible] = [:],
        query: [(name: String, value: String)] = [],
        fragment: [(name: String, value: String)] = []
    ) {
        self.captures = captures.mapValues(\.captureText)
        self.query = query
        self.fragment = fragment
    }
}
