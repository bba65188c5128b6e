/// A link read once, strictly: an absolute URL that the strict reading accepts, with its parts as the WHATWG URL
/// Standard reads them.
///
/// Build one with ``init(parsing:)-(String)``; every refusal is a ``RouteError/refused(_:)`` naming the reason and
/// the part. The properties named like the URL API (``href``, ``protocol``, ``hostname``, ``pathname`` …) return
/// exactly what a browser's `URL` object returns for the same input. A link is stored as its serialisation, the
/// offsets of its parts and its parameters, split as it is parsed; a link that is already in its serialised form
/// keeps its input string as `href`.
///
/// ```swift
/// let link = try LinkURL(parsing: "myapp://reset#access_token=…&type=recovery")
/// link.scheme    // "myapp"
/// link.hostname  // "reset"
/// ```
public struct LinkURL: Sendable, Hashable, CustomStringConvertible {
    /// The longest link accepted, in UTF-8 bytes; checked before anything else is read.
    public static let maximumLength = 16_384
    /// Schemes that are never links.
    public static let blockedSchemes: Set<String> = [
        "javascript", "data", "file", "vbscript", "about", "blob", "mailto", "tel", "sms",
    ]
    /// The special schemes that may reach linkd, with their default ports.
    static let specialSchemes: [String: UInt16] = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21]

    /// Where each part stands in ``href``, as UTF-8 offsets.
    ///
    /// The offsets are kept in 16 bits (`href` stays below 65,536 bytes: percent-encoding at most triples the
    /// 16,384 bytes of a link and a host grows by fewer than 48) and nothing here is a reference, so that a link's
    /// storage is built and freed by copying words, without a retain or release for its layout.
    struct Layout: Sendable {
        enum HostKind: Sendable, Equatable {
            case domain
            case opaque
            case ipv4(UInt32)
            /// An IPv6 address, read again from `href` when asked for.
            case ipv6
        }

        private let scheme: UInt16
        private let hostStart: UInt16
        private let hostEnd: UInt16
        private let pathStart: UInt16
        private let pathEnd: UInt16
        private let queryStart: UInt16
        private let queryEnd: UInt16
        private let fragmentStart: UInt16
        private let fragmentEnd: UInt16
        private let parametersStart: UInt16
        private let portValue: UInt16
        private let flags: UInt8
        private let hostCode: UInt8
        private let ipv4: UInt32

        private static let hasPortFlag: UInt8 = 1
        private static let opaquePathFlag: UInt8 = 2
        private static let hasQueryFlag: UInt8 = 4
        private static let hasFragmentFlag: UInt8 = 8
        private static let ownEscapesFlag: UInt8 = 16

        init(
            schemeEnd: Int,
            hostKind: HostKind?,
            hostRange: Range<Int>,
            port: UInt16?,
            pathRange: Range<Int>,
            hasOpaquePath: Bool,
            queryRange: Range<Int>?,
            fragmentRange: Range<Int>?,
            fragmentParametersStart: Int,
            escapesAreOwn: Bool = false
        ) {
            scheme = UInt16(schemeEnd)
            (hostStart, hostEnd) = (UInt16(hostRange.lowerBound), UInt16(hostRange.upperBound))
            (pathStart, pathEnd) = (UInt16(pathRange.lowerBound), UInt16(pathRange.upperBound))
            (queryStart, queryEnd) = (UInt16(queryRange?.lowerBound ?? 0), UInt16(queryRange?.upperBound ?? 0))
            (fragmentStart, fragmentEnd) = (
                UInt16(fragmentRange?.lowerBound ?? 0), UInt16(fragmentRange?.upperBound ?? 0)
            )
            parametersStart = UInt16(fragmentParametersStart)
            portValue = port ?? 0
            var flags: UInt8 = port == nil ? 0 : Self.hasPortFlag
            if hasOpaquePath { flags |= Self.opaquePathFlag }
            if queryRange != nil { flags |= Self.hasQueryFlag }
            if fragmentRange != nil { flags |= Self.hasFragmentFlag }
            if escapesAreOwn { flags |= Self.ownEscapesFlag }
            self.flags = flags
            switch hostKind {
            case nil: (hostCode, ipv4) = (0, 0)
            case .domain: (hostCode, ipv4) = (1, 0)
            case .opaque: (hostCode, ipv4) = (2, 0)
            case .ipv4(let address): (hostCode, ipv4) = (3, address)
            case .ipv6: (hostCode, ipv4) = (4, 0)
            }
        }

        var schemeEnd: Int { Int(scheme) }
        var hostKind: HostKind? {
            switch hostCode {
            case 0: nil
            case 1: .domain
            case 2: .opaque
            case 3: .ipv4(ipv4)
            default: .ipv6
            }
        }
        var hostRange: Range<Int> { Int(hostStart)..<Int(hostEnd) }
        var port: UInt16? { flags & Self.hasPortFlag != 0 ? portValue : nil }
        var pathRange: Range<Int> { Int(pathStart)..<Int(pathEnd) }
        var hasOpaquePath: Bool { flags & Self.opaquePathFlag != 0 }
        var queryRange: Range<Int>? { flags & Self.hasQueryFlag != 0 ? Int(queryStart)..<Int(queryEnd) : nil }
        var fragmentRange: Range<Int>? {
            flags & Self.hasFragmentFlag != 0 ? Int(fragmentStart)..<Int(fragmentEnd) : nil
        }
        /// Where the fragment's parameters start: after its last `#`.
        var fragmentParametersStart: Int { Int(parametersStart) }
        /// Whether every percent-escape of `href` is one the serialisation wrote (the input held no `%`): each then
        /// encodes a byte of the input, which is valid UTF-8, and the parameters, split at ASCII bytes, hold whole
        /// sequences — they decode to UTF-8 without being checked.
        var escapesAreOwn: Bool { flags & Self.ownEscapesFlag != 0 }
    }

    /// The serialisation, its layout and its parameters, shared by every copy of the link (a copy is one
    /// retain). Layout and table hold no reference but the table's list beyond eight entries: building one copies
    /// a few words, and freeing one releases `href`.
    final class Storage: Sendable {
        let href: String
        let layout: Layout
        let parameters: ParameterTable

        init(href: String, layout: Layout, parameters: ParameterTable) {
            var href = href
            href.makeContiguousUTF8()  // what `withBytes` reads through its span (a native string already is)
            self.href = href
            self.layout = layout
            self.parameters = parameters
        }
    }

    let storage: Storage

    /// The serialised link, as the URL API's `href`.
    public var href: String { storage.href }
    /// Where each part stands in `href`.
    var layout: Layout { storage.layout }

    /// A link whose `href` is `bytes` as a string.
    init(href: String, bytes: UnsafeBufferPointer<UInt8>, layout: Layout) {
        // The table is split before the storage is allocated: by the time it is copied there, the stores that
        // filled it have left the store buffer (a copy right after them waits for each).
        let parameters = ParameterTable(bytes, layout)
        storage = Storage(href: href, layout: layout, parameters: parameters)
    }

    init(storage: Storage) {
        self.storage = storage
    }

    init(href: String, layout: Layout) {
        var href = href  // native already: `withUTF8` copies nothing
        let parameters = href.withUTF8 { ParameterTable($0, layout) }
        storage = Storage(href: href, layout: layout, parameters: parameters)
    }

    /// Parses `text` strictly.
    ///
    /// - Throws: ``RouteError/refused(_:)`` with the first rule of linkd's strict reading that `text` breaks.
    public init(parsing text: borrowing String) throws(RouteError) {
        // A link kept as its own `href` is read through its UTF-8 view many times: make that contiguous once (a
        // native string already is, and is read without a copy).
        let parsed = text.utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(RouteError) in try LinkURLParser.parse(bytes, original: copy text) }
        }
        guard let parsed else {
            var contiguous = copy text
            contiguous.makeContiguousUTF8()
            self = try LinkURL(parsing: contiguous)
            return
        }
        self = try parsed.get()
    }

    /// Parses raw bytes strictly; bytes that are not UTF-8 are refused as `invalid_utf8`.
    ///
    /// - Throws: ``RouteError/refused(_:)`` with the first rule of linkd's strict reading that `bytes` break.
    public init(parsing bytes: some Collection<UInt8>) throws(RouteError) {
        let array = Array(bytes)
        let result = array.withUnsafeBufferPointer { bytes in
            Result { () throws(RouteError) in try LinkURLParser.parse(bytes) }
        }
        self = try result.get()
    }

    /// Calls `body` with `href`'s bytes (always ASCII: the serialisation percent-encodes everything else).
    func withBytes<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // Through the view's contiguous storage, which is inlined (its `span` is a call): `href` is native or
        // contiguous, so the storage is always there.
        let result = storage.href.utf8.withContiguousStorageIfAvailable { bytes in
            Swift.Result { () throws(Failure) in try body(bytes) }
        }
        guard let result else { preconditionFailure("a link's href is contiguous") }
        return try result.get()
    }

    /// `href`'s UTF-8 bytes from `range`.
    func text(_ range: Range<Int>) -> Substring {
        let utf8 = href.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(start, offsetBy: range.count)
        return Substring(utf8[start..<end])
    }

    /// The scheme in lower case, without the colon.
    public var scheme: String { String(text(0..<layout.schemeEnd)) }
    /// The host, or `nil` when the link has no `//` authority (`myapp:reset`, `myapp:/reset`).
    public var host: LinkHost? {
        switch layout.hostKind {
        case nil: nil
        case .domain: .domain(String(text(layout.hostRange)))
        case .opaque: .opaque(String(text(layout.hostRange)))
        case .ipv4(let address): .ipv4(address)
        case .ipv6:
            // `href` holds the address as the standard serialises it, in brackets.
            IPv6Address(Array(text(layout.hostRange).utf8.dropFirst().dropLast())[...]).map { .ipv6($0) }
        }
    }
    /// The port, or `nil` when it is absent or the scheme's default.
    public var port: UInt16? { layout.port }
    /// The path as the URL API's `pathname` serialises it (percent-encoded).
    public var pathname: String { String(text(layout.pathRange)) }
    /// Whether the path is opaque (`myapp:reset`): one string, not `/`-separated segments.
    public var hasOpaquePath: Bool { layout.hasOpaquePath }
    /// The query without its `?`, percent-encoded; `nil` when there is no `?`.
    public var query: String? { layout.queryRange.map { String(text($0)) } }
    /// The fragment without its `#`, percent-encoded; `nil` when there is no `#`.
    public var fragment: String? { layout.fragmentRange.map { String(text($0)) } }

    /// Whether the scheme is one of the WHATWG special schemes (`http`, `https`, `ws`, `wss`, `ftp`).
    public var isSpecial: Bool { Self.specialSchemes[scheme] != nil }

    /// The URL API's `protocol`: the scheme and a colon.
    public var `protocol`: String { scheme + ":" }
    /// The URL API's `username`: always empty, since a link with userinfo is refused.
    public var username: String { "" }
    /// The URL API's `password`: always empty, since a link with userinfo is refused.
    public var password: String { "" }
    /// The URL API's `hostname`: the serialised host, or empty.
    public var hostname: String { layout.hostKind == nil ? "" : String(text(layout.hostRange)) }
    /// The URL API's `port`: the digits, or empty when absent or default.
    public var portText: String { port.map { String($0) } ?? "" }
    /// The URL API's `search`: `?` and the query, or empty when the query is absent or empty.
    public var search: String { layout.queryRange.map { $0.isEmpty ? "" : "?" + text($0) } ?? "" }
    /// The URL API's `hash`: `#` and the fragment, or empty when the fragment is absent or empty.
    public var hash: String { layout.fragmentRange.map { $0.isEmpty ? "" : "#" + text($0) } ?? "" }

    /// Scheme, host and port as they stand at the start of ``href`` (`myapp://reset`, `https://h.example:8443`);
    /// `nil` without a host.
    var authorityText: Substring? { layout.hostKind == nil ? nil : text(0..<layout.pathRange.lowerBound) }

    /// The path's segments, still percent-encoded, without the leading `/`; an opaque path is one segment.
    ///
    /// `https://h/` has one empty segment, `myapp://reset` none.
    public var pathSegments: [Substring] {
        let path = text(layout.pathRange)
        if hasOpaquePath { return [path] }
        guard !path.isEmpty else { return [] }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    }

    public var description: String { href }

    public static func == (lhs: LinkURL, rhs: LinkURL) -> Bool { lhs.href == rhs.href }

    public func hash(into hasher: inout Hasher) { hasher.combine(href) }
}
