extension Router {
    /// The link `route` prints back to: the first registered pattern whose printer claims the route, filled in.
    ///
    /// - Returns: a link that routes back to `route`, or `nil` when no printer claims it or its values cannot be
    ///   written into the pattern (a capture left without a value, a value that would be a dot segment).
    public func link(for route: Route) -> LinkURL? {
        for entry in entries {
            guard let print = entry.print, let values = print(route) else { continue }
            if let link = try? entry.pattern.link(with: values) { return link }
        }
        return nil
    }
}

extension RoutePattern {
    /// This pattern filled in with `values`: captures percent-encoded into the path, parameters form-encoded.
    ///
    /// - Throws: ``RouteError/invalidPattern(pattern:problem:)`` for a capture without a value, or the parse's
    ///   refusal of the link it writes.
    public func link(with values: RouteValues) throws(RouteError) -> LinkURL {
        var text = scheme + "://" + host + (port.map { ":" + String($0) } ?? "")
        for segment in segments {
            switch segment {
            case .literal(let literal):
                text += "/" + PercentEncoding.encodeComponent(literal)
            case .capture(let name):
                guard let value = values.captures[name] else {
                    throw .invalidPattern(pattern: self.text, problem: "no value for capture '\(name)'")
                }
                text += "/" + PercentEncoding.encodeComponent(value)
            case .rest(let name):
                guard let value = values.captures[name] else {
                    throw .invalidPattern(pattern: self.text, problem: "no value for capture '\(name)'")
                }
                for part in value.split(separator: "/", omittingEmptySubsequences: false) {
                    text += "/" + PercentEncoding.encodeComponent(String(part))
                }
            }
        }
        if !values.query.isEmpty { text += "?" + Self.formEncode(values.query) }
        if !values.fragment.isEmpty { text += "#" + Self.formEncode(values.fragment) }
        return try LinkURL(parsing: text)
    }

    private static func formEncode(_ items: [(name: String, value: String)]) -> String {
        items.map { PercentEncoding.encodeComponent($0.name) + "=" + PercentEncoding.encodeComponent($0.value) }
            .joined(separator: "&")
    }
}
