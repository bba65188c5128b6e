/// A link read once, strictly: an absolute URL that DESIGN.md §3 accepts, with its parts as the WHATWG URL
/// Standard reads them.
///
/// Build one with ``init(parsing:)-(String)``; every refusal is a ``RouteError/refused(_:)`` naming the reason and
/// the part. The properties named like the URL API (``href``, ``protocol``, ``hostname``, ``pathname`` …) return
/// exactly what a browser's `URL` object returns for the same input.
///
/// ```swift
/// let link = try LinkURL(parsing: "myapp://reset#access_token=…&type=recovery")
/// link.scheme    // "myapp"
/// link.hostname  // "reset"
/// ```
public struct LinkURL: Sendable, Hashable, CustomStringConvertible {
    /// The longest link accepted, in UTF-8 bytes; checked before anything else is read.
    public static let maximumLength = 16_384
    /// Schemes that are never links (DESIGN.md §3).
    public static let blockedSchemes: Set<String> = [
        "javascript", "data", "file", "vbscript", "about", "blob", "mailto", "tel", "sms",
    ]
    /// The special schemes that may reach linkd, with their default ports.
    static let specialSchemes: [String: UInt16] = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21]

    /// The scheme in lower case, without the colon.
    public let scheme: String
    /// The host, or `nil` when the link has no `//` authority (`myapp:reset`, `myapp:/reset`).
    public let host: LinkHost?
    /// The port, or `nil` when it is absent or the scheme's default.
    public let port: UInt16?
    /// The path as the URL API's `pathname` serialises it (percent-encoded).
    public let pathname: String
    /// Whether the path is opaque (`myapp:reset`): one string, not `/`-separated segments.
    public let hasOpaquePath: Bool
    /// The query without its `?`, percent-encoded; `nil` when there is no `?`.
    public let query: String?
    /// The fragment without its `#`, percent-encoded; `nil` when there is no `#`.
    public let fragment: String?

    init(
        scheme: String,
        host: LinkHost?,
        port: UInt16?,
        pathname: String,
        hasOpaquePath: Bool,
        query: String?,
        fragment: String?
    ) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.pathname = pathname
        self.hasOpaquePath = hasOpaquePath
        self.query = query
        self.fragment = fragment
    }

    /// Parses `text` strictly.
    ///
    /// - Throws: ``RouteError/refused(_:)`` with the first rule of DESIGN.md §3 that `text` breaks.
    public init(parsing text: String) throws(RouteError) {
        self = try LinkURLParser.parse(Array(text.utf8))
    }

    /// Parses raw bytes strictly; bytes that are not UTF-8 are refused as `invalid_utf8`.
    ///
    /// - Throws: ``RouteError/refused(_:)`` with the first rule of DESIGN.md §3 that `bytes` break.
    public init(parsing bytes: some Collection<UInt8>) throws(RouteError) {
        self = try LinkURLParser.parse(Array(bytes))
    }

    /// Whether the scheme is one of the WHATWG special schemes (`http`, `https`, `ws`, `wss`, `ftp`).
    public var isSpecial: Bool { Self.specialSchemes[scheme] != nil }

    /// The serialised link, as the URL API's `href`.
    public var href: String {
        var text = scheme + ":"
        if let host {
            text += "//" + host.description
            if let port { text += ":" + String(port) }
        }
        text += pathname
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// The URL API's `protocol`: the scheme and a colon.
    public var `protocol`: String { scheme + ":" }
    /// The URL API's `username`: always empty, since a link with userinfo is refused.
    public var username: String { "" }
    /// The URL API's `password`: always empty, since a link with userinfo is refused.
    public var password: String { "" }
    /// The URL API's `hostname`: the serialised host, or empty.
    public var hostname: String { host?.description ?? "" }
    /// The URL API's `port`: the digits, or empty when absent or default.
    public var portText: String { port.map { String($0) } ?? "" }
    /// The URL API's `search`: `?` and the query, or empty when the query is absent or empty.
    public var search: String { query.map { $0.isEmpty ? "" : "?" + $0 } ?? "" }
    /// The URL API's `hash`: `#` and the fragment, or empty when the fragment is absent or empty.
    public var hash: String { fragment.map { $0.isEmpty ? "" : "#" + $0 } ?? "" }

    /// The path's segments, still percent-encoded, without the leading `/`; an opaque path is one segment.
    ///
    /// `https://h/` has one empty segment, `myapp://reset` none.
    public var pathSegments: [Substring] {
        if hasOpaquePath { return [pathname[...]] }
        guard !pathname.isEmpty else { return [] }
        return pathname.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    }

    public var description: String { href }
}
