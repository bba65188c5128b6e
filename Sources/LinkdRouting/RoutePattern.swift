/// A link pattern such as `myapp://reset`, `https://notes.example.com/note/{id}` or `myapp://open/{rest...}`.
///
/// Scheme, host and port are compared exactly after the normalisation ``LinkURL`` applies (scheme and special
/// hosts in lower case, default ports dropped). Each path segment is a literal, a `{name}` capture of one segment,
/// or, last only, a `{name...}` capture of one or more remaining segments. Query and fragment are not part of a
/// pattern. A trailing `/` on the link or the pattern does not matter.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// One path segment of a pattern.
    public enum Segment: Sendable, Hashable {
        /// A literal segment, compared with the link's percent-decoded segment.
        case literal(String)
        /// `{name}`: exactly one segment.
        case capture(String)
        /// `{name...}`: one or more remaining segments, joined with `/`.
        case rest(String)
    }

    /// The parts, behind one reference: a match carries its pattern, and a copy is then one retain.
    private final class Parts: Sendable {
        let text: String
        let scheme: String
        let host: String
        let port: UInt16?
        let segments: [Segment]
        let hasCaptures: Bool

        init(text: String, scheme: String, host: String, port: UInt16?, segments: [Segment]) {
            self.text = text
            self.scheme = scheme
            self.host = host
            self.port = port
            self.segments = segments
            hasCaptures = segments.contains { if case .literal = $0 { false } else { true } }
        }
    }

    private let parts: Parts

    /// The pattern as written.
    public var text: String { parts.text }
    /// The scheme in lower case.
    public var scheme: String { parts.scheme }
    /// The host as ``LinkHost`` serialises it.
    public var host: String { parts.host }
    /// The port, `nil` when absent or the scheme's default.
    public var port: UInt16? { parts.port }
    /// The path segments.
    public var segments: [Segment] { parts.segments }
    /// Whether some segment is a capture.
    var hasCaptures: Bool { parts.hasCaptures }

    /// Parses a pattern.
    ///
    /// - Throws: ``RouteError/invalidPattern(pattern:problem:)`` naming what is wrong.
    public init(_ text: String) throws(RouteError) {
        func invalid(_ problem: String) -> RouteError { .invalidPattern(pattern: text, problem: problem) }
        guard !text.contains("?") && !text.contains("#") else {
            throw invalid("a pattern has no query or fragment")
        }
        var segments: [Segment] = []
        var names: Set<String> = []
        var skeleton = text
        if let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") {
            let authorityStart = text.index(colon, offsetBy: 3)
            let afterAuthority = text[authorityStart...].firstIndex(of: "/") ?? text.endIndex
            let rawSegments = text[afterAuthority...].split(separator: "/", omittingEmptySubsequences: false)
                .dropFirst()
            for (index, raw) in rawSegments.enumerated() {
                let isLast = index == rawSegments.count - 1
                if raw.isEmpty && isLast { break }
                let segment = try Self.segment(raw, isLast: isLast, invalid: invalid)
                if case .capture(let name) = segment, !names.insert(name).inserted {
                    throw invalid("capture '\(name)' appears twice")
                }
                if case .rest(let name) = segment, !names.insert(name).inserted {
                    throw invalid("capture '\(name)' appears twice")
                }
                segments.append(segment)
            }
            skeleton = String(text[..<afterAuthority])
        } else {
            throw invalid("a pattern starts with 'scheme://'")
        }
        let link: LinkURL
        do {
            link = try LinkURL(parsing: skeleton)
        } catch {
            throw invalid(error.description)
        }
        guard let host = link.host else { throw invalid("a pattern needs a host") }
        parts = Parts(text: text, scheme: link.scheme, host: host.description, port: link.port, segments: segments)
    }

    private static func segment(
        _ raw: Substring,
        isLast: Bool,
        invalid: (String) -> RouteError
    ) throws(RouteError) -> Segment {
        guard raw.first == "{" else {
            guard !raw.contains("{") && !raw.contains("}") else {
                throw invalid("a capture is a whole segment: '\(raw)'")
            }
            do {
                let decoded = try LinkURL(parsing: "x:/" + raw).pathSegments.first ?? ""
                return .literal(
                    String(decoding: PercentEncoding.decode(decoded.utf8, plusAsSpace: false), as: UTF8.self)
                )
            } catch {
                throw invalid("segment '\(raw)': \(error.description)")
            }
        }
        guard raw.last == "}" else { throw invalid("a capture is a whole segment: '\(raw)'") }
        var name = raw.dropFirst().dropLast()
        let isRest = name.hasSuffix("...")
        if isRest {
            guard isLast else { throw invalid("'{\(name)}' must be the last segment") }
            name = name.dropLast(3)
        }
        guard let first = name.first, first.isLetter || first == "_",
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { throw invalid("'\(name)' is not a capture name") }
        return isRest ? .rest(String(name)) : .capture(String(name))
    }

    /// The key scheme, host and port are looked up by.
    var authorityKey: String { Self.authorityKey(scheme: scheme, host: host, port: port) }

    static func authorityKey(scheme: String, host: String, port: UInt16?) -> String {
        scheme + "://" + host + (port.map { ":" + String($0) } ?? "")
    }

    public var description: String { text }

    public static func == (lhs: RoutePattern, rhs: RoutePattern) -> Bool {
        lhs.text == rhs.text && lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.port == rhs.port
            && lhs.segments == rhs.segments
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(segments)
    }
}
