/// The strict parser behind ``LinkURL``: the WHATWG basic URL parser for absolute URLs without a base, with the
/// refusals of DESIGN.md §3 in place of the standard's error recovery.
enum LinkURLParser {
    private static let colon = UInt8(ascii: ":")
    private static let slash = UInt8(ascii: "/")
    private static let question = UInt8(ascii: "?")
    private static let numberSign = UInt8(ascii: "#")

    static func parse(_ input: [UInt8]) throws(RouteError) -> LinkURL {
        guard input.count <= LinkURL.maximumLength else {
            throw .refused(.tooLong, part: .input, "the link is longer than \(LinkURL.maximumLength) bytes")
        }
        guard !input.isEmpty else { throw .refused(.empty, part: .input, "the link is empty") }
        try InputCheck.check(input)

        let (scheme, afterScheme) = try readScheme(input)
        let defaultPort = LinkURL.specialSchemes[scheme]
        let isSpecial = defaultPort != nil
        var index = afterScheme
        var host: LinkHost?
        var port: UInt16?
        let hasAuthority = input[index...].starts(with: "//".utf8)
        if isSpecial {
            guard hasAuthority, index + 2 == input.count || input[index + 2] != slash else {
                throw .refused(
                    .badAuthority,
                    part: .host,
                    "a '\(scheme)' link must have exactly '//' after '\(scheme):'"
                )
            }
        }
        if hasAuthority {
            (host, port, index) = try readAuthority(input, from: index + 2, isSpecial: isSpecial)
            if port == defaultPort { port = nil }
        }

        let pathEnd = input[index...].firstIndex { $0 == question || $0 == numberSign } ?? input.count
        let hasOpaquePath = host == nil && (index == input.count || input[index] != slash)
        let pathname = try readPath(input[index..<pathEnd], isSpecial: isSpecial, isOpaque: hasOpaquePath)

        var query: String?
        var fragmentStart = pathEnd
        if pathEnd < input.count && input[pathEnd] == question {
            let queryEnd = input[pathEnd...].firstIndex(of: numberSign) ?? input.count
            query = encode(input[(pathEnd + 1)..<queryEnd], isSpecial ? .specialQuery : .query)
            fragmentStart = queryEnd
        }
        var fragment: String?
        if fragmentStart < input.count {
            fragment = encode(input[(fragmentStart + 1)...], .fragment)
        }
        return LinkURL(
            scheme: scheme,
            host: host,
            port: port,
            pathname: pathname,
            hasOpaquePath: hasOpaquePath,
            query: query,
            fragment: fragment
        )
    }

    /// Reads `scheme:`; returns the scheme in lower case and the index after the colon.
    private static func readScheme(_ input: [UInt8]) throws(RouteError) -> (String, Int) {
        let noScheme = RouteError.refused(
            .noScheme,
            part: .scheme,
            "the link does not start with a scheme such as 'myapp:' or 'https:'"
        )
        guard let first = input.first, first | 0x20 >= UInt8(ascii: "a"), first | 0x20 <= UInt8(ascii: "z") else {
            throw noScheme
        }
        guard let end = input.firstIndex(where: { !InputCheck.isSchemeByte($0) }), input[end] == colon else {
            throw noScheme
        }
        let scheme = String(decoding: input[..<end].map { $0 | (($0 >= 0x41 && $0 <= 0x5A) ? 0x20 : 0) }, as: UTF8.self)
        if LinkURL.blockedSchemes.contains(scheme) {
            throw .refused(.blockedScheme, part: .scheme, "the scheme '\(scheme)' is never a link")
        }
        return (scheme, end + 1)
    }

    /// Reads host and port from `start` up to the first `/`, `?` or `#`; returns them and where the path starts.
    private static func readAuthority(
        _ input: [UInt8],
        from start: Int,
        isSpecial: Bool
    ) throws(RouteError) -> (LinkHost?, UInt16?, Int) {
        let end = input[start...].firstIndex { $0 == slash || $0 == question || $0 == numberSign } ?? input.count
        let authority = input[start..<end]
        if authority.contains(UInt8(ascii: "@")) {
            throw .refused(.userinfo, part: .userinfo, "a link must not carry userinfo ('user@' before the host)")
        }
        var hostEnd = end
        var portStart: Int?
        if authority.first == UInt8(ascii: "[") {
            if let close = authority.firstIndex(of: UInt8(ascii: "]")), close + 1 < end, input[close + 1] == colon {
                hostEnd = close + 1
                portStart = close + 2
            }
        } else if let separator = authority.firstIndex(of: colon) {
            hostEnd = separator
            portStart = separator + 1
        }
        let hostBytes = input[start..<hostEnd]
        var host: LinkHost
        if hostBytes.isEmpty {
            guard !isSpecial else { throw .refused(.badHost, part: .host, "the link has no host") }
            guard portStart == nil else { throw .refused(.badHost, part: .host, "the link has a port but no host") }
            host = .opaque("")
        } else {
            host = try HostParser.parse(hostBytes, isSpecial: isSpecial)
        }
        let port = try portStart.flatMap { (start) throws(RouteError) in try readPort(input[start..<end]) }
        return (host, port, end)
    }

    private static func readPort(_ digits: ArraySlice<UInt8>) throws(RouteError) -> UInt16? {
        guard !digits.isEmpty else { return nil }
        let text = String(decoding: digits, as: UTF8.self)
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else {
                throw .refused(.badPort, part: .port, "port '\(text)' is not a number")
            }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            guard value <= Int(UInt16.max) else {
                throw .refused(.badPort, part: .port, "port '\(text)' is out of range")
            }
        }
        return UInt16(value)
    }

    /// Reads and percent-encodes the path; refuses dot segments, which the standard would resolve away.
    private static func readPath(
        _ bytes: ArraySlice<UInt8>,
        isSpecial: Bool,
        isOpaque: Bool
    ) throws(RouteError) -> String {
        for segment in bytes.split(separator: slash, omittingEmptySubsequences: false) where isDotSegment(segment) {
            throw .refused(
                .dotSegment,
                part: .path,
                "the path holds the dot segment '\(String(decoding: segment, as: UTF8.self))'"
            )
        }
        if isOpaque { return encode(bytes, .c0Control) }
        if bytes.isEmpty { return isSpecial ? "/" : "" }
        return encode(bytes, .path)
    }

    /// `.`, `..` and their percent-encoded spellings (`%2e`, `.%2E` …).
    private static func isDotSegment(_ segment: ArraySlice<UInt8>) -> Bool {
        guard !segment.isEmpty, segment.count <= 6 else { return false }
        var dots = 0
        var index = segment.startIndex
        while index < segment.endIndex {
            if segment[index] == UInt8(ascii: ".") {
                index += 1
            } else if segment[index] == UInt8(ascii: "%"), index + 2 < segment.endIndex,
                segment[index + 1] == UInt8(ascii: "2"), segment[index + 2] | 0x20 == UInt8(ascii: "e")
            {
                index += 3
            } else {
                return false
            }
            dots += 1
        }
        return dots <= 2
    }

    private static func encode(_ bytes: ArraySlice<UInt8>, _ set: PercentEncodeSet) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 8)
        PercentEncoding.append(bytes, to: &output, encoding: set)
        return String(decoding: output, as: UTF8.self)
    }
}
