/// The strict parser behind ``LinkURL``: the WHATWG basic URL parser for absolute URLs without a base, with the
/// strict reading's refusals in place of the standard's error recovery.
///
/// It reads the input once (``InputScan``); a plain link is then laid out straight from its bytes (``PlainLink``),
/// any other is serialised into one buffer (or, when it may be its own serialisation, compared with itself),
/// noting where each part stands.
enum LinkURLParser {
    typealias Bytes = UnsafeBufferPointer<UInt8>
    private static let colon = UInt8(ascii: ":")
    private static let slash = UInt8(ascii: "/")
    private static let question = UInt8(ascii: "?")
    private static let numberSign = UInt8(ascii: "#")

    /// Parses `input`; `original`, when given, is `input` as a string, kept as `href` when the input is already
    /// its own serialisation. A plain link (``PlainLink``) is laid out straight from its bytes; others are walked
    /// comparing, and written when they differ. `tryPlain: false` and `tryVerbatim: false` skip those roads (tests
    /// compare the three).
    static func parse(
        _ input: Bytes,
        original: String? = nil,
        tryPlain: Bool = true,
        tryVerbatim: Bool = true
    ) throws(RouteError) -> LinkURL {
        guard input.count <= LinkURL.maximumLength else {
            throw .refused(.tooLong, part: .input, "the link is longer than \(LinkURL.maximumLength) bytes")
        }
        guard !input.isEmpty else { throw .refused(.empty, part: .input, "the link is empty") }
        let scan = try InputScan(input)
        let pathEnd = scan.firstQuestion ?? scan.firstHash ?? input.count
        if tryPlain && (!scan.needsEncoding || scan.firstToEncode > pathEnd), let reading = PlainLink.read(input, scan)
        {
            // Bytes to encode in the query or fragment only: the plain reading up to them, then those parts encoded.
            if scan.needsEncoding { return PlainLink.serialise(input, reading, encodingAfterThePath: scan) }
            if reading.isVerbatim { return unchanged(input, original, reading.layout) }
            return LinkURL(href: PlainLink.serialise(input, reading), layout: reading.layout)
        }
        if tryVerbatim && !scan.needsEncoding {
            // Most links are already serialised: walk them comparing instead of writing, and copy nothing.
            var check = OutputBuffer(verifying: input)
            do throws(RouteError) {
                if let layout = try serialise(input, scan, into: &check), !check.diverged && check.count == input.count
                {
                    return unchanged(input, original, layout)
                }
            } catch {
                // A refusal met before the serialisation left the input names the input's own bytes.
                if !check.diverged { throw error }
            }
        }
        // Percent-encoding triples a byte to encode (every byte a percent-encode set holds that the strict reading
        // lets through is one the scan marks, so all stand between its first and its last); a normalised IPv4 or
        // IPv6 host grows by fewer than 48 bytes.
        let encoded = scan.needsEncoding ? scan.lastToEncode + 1 - scan.firstToEncode : 0
        let capacity = input.count + 2 * encoded + 48
        var failure: RouteError?
        var layout: LinkURL.Layout?
        let href = String(unsafeUninitializedCapacity: capacity) { buffer in
            var output = OutputBuffer(buffer)
            do throws(RouteError) {
                layout = try serialise(input, scan, into: &output)
            } catch {
                failure = error
            }
            return output.count
        }
        if let failure { throw failure }
        guard let layout else { preconditionFailure("serialise either fails or lays the link out") }
        return LinkURL(href: href, layout: layout)
    }

    /// The link whose `href` is its input: `original` when given, else `input` as a string.
    private static func unchanged(_ input: Bytes, _ original: String?, _ layout: LinkURL.Layout) -> LinkURL {
        LinkURL(href: original ?? String(decoding: input, as: UTF8.self), bytes: input, layout: layout)
    }

    /// Writes the serialisation of `input` and returns where its parts stand; verifying, `nil` as soon as the
    /// serialisation leaves the input (at the end of a part), as it is then written anyway.
    private static func serialise(
        _ input: Bytes,
        _ scan: InputScan,
        into output: inout OutputBuffer
    ) throws(RouteError) -> LinkURL.Layout? {
        let (afterScheme, defaultPort) = try readScheme(input, into: &output)
        if output.diverged { return nil }
        let schemeEnd = output.count - 1
        let isSpecial = defaultPort != nil
        let (hostKind, hostRange, port, index) = try writeAuthority(
            input,
            from: afterScheme,
            defaultPort: defaultPort,
            schemeEnd: schemeEnd,
            into: &output
        )
        // Verifying, the serialisation so far must stand where the input does (a default port dropped moves it).
        if output.diverged || output.isVerifying && output.count != index { return nil }

        let queryMark = scan.firstQuestion.map { Swift.max($0, index) }
        let pathEnd = queryMark ?? scan.firstHash ?? input.count
        let hasOpaquePath = hostKind == nil && (index == input.count || input[index] != slash)
        let pathStart = output.count
        try readPath(
            input[index..<pathEnd],
            isSpecial: isSpecial,
            isOpaque: hasOpaquePath,
            mayNeedEncoding: scan.needsEncoding,
            into: &output
        )
        let pathRange = pathStart..<output.count
        if output.diverged { return nil }

        let query = queryMark.flatMap { $0 < input.count && input[$0] == question ? $0 : nil }
        let tail = writeQueryAndFragment(input, query: query, isSpecial: isSpecial, scan, into: &output)
        return LinkURL.Layout(
            schemeEnd: schemeEnd,
            hostKind: hostKind,
            hostRange: hostRange,
            port: port,
            pathRange: pathRange,
            hasOpaquePath: hasOpaquePath,
            queryRange: tail.query,
            fragmentRange: tail.fragment,
            fragmentParametersStart: tail.fragmentParametersStart,
            escapesAreOwn: !scan.hasPercent
        )
    }

    /// Writes the link's authority (`//`, the host and a port other than the scheme's default) when it has one, which
    /// a special scheme must; the host's kind and range in the output, the port, and where the input goes on.
    @inline(__always)
    private static func writeAuthority(
        _ input: Bytes,
        from start: Int,
        defaultPort: UInt16?,
        schemeEnd: Int,
        into output: inout OutputBuffer
    ) throws(RouteError) -> (LinkURL.Layout.HostKind?, Range<Int>, UInt16?, Int) {
        let isSpecial = defaultPort != nil
        let hasAuthority = start + 1 < input.count && input[start] == slash && input[start + 1] == slash
        if isSpecial {
            guard hasAuthority, start + 2 == input.count || input[start + 2] != slash else {
                let scheme = String(decoding: output.written[..<schemeEnd], as: UTF8.self)
                throw .refused(
                    .badAuthority,
                    part: .host,
                    "a '\(scheme)' link must have exactly '//' after '\(scheme):'"
                )
            }
        }
        guard hasAuthority else { return (nil, 0..<0, nil, start) }
        output.append(slash)
        output.append(slash)
        let hostStart = output.count
        var (hostKind, port, index) = try readAuthority(input, from: start + 2, isSpecial: isSpecial, into: &output)
        let hostRange = hostStart..<output.count
        if port == defaultPort { port = nil }
        if let port {
            output.append(colon)
            output.append(decimal: port)
        }
        return (hostKind, hostRange, port, index)
    }

    /// Where a link's query and fragment stand in its serialisation, and where the fragment's parameters start.
    struct Tail {
        var query: Range<Int>?
        var fragment: Range<Int>?
        var fragmentParametersStart: Int
    }

    /// Writes the query of `input` (after the `?` at `query`, when it has one) and its fragment (after the first
    /// `#`), percent-encoded with the sets of a special or another scheme.
    static func writeQueryAndFragment(
        _ input: Bytes,
        query: Int?,
        isSpecial: Bool,
        _ scan: InputScan,
        into output: inout OutputBuffer
    ) -> Tail {
        var tail = Tail(fragmentParametersStart: 0)
        if let query {
            output.append(question)
            let start = output.count
            let end = scan.firstHash ?? input.count
            append(input[(query + 1)..<end], isSpecial ? .specialQuery : .query, scan, to: &output)
            tail.query = start..<output.count
        }
        tail.fragmentParametersStart = output.count
        if let hash = scan.firstHash {
            output.append(numberSign)
            let start = output.count
            // Hash-router sites produce `…/#/#access_token=…`: the parameters follow the last `#` (written as it is),
            // where the output stands once what comes before it is written — encoding may have moved it.
            let lastHash = scan.lastHash ?? hash
            append(input[(hash + 1)..<(lastHash + 1)], .fragment, scan, to: &output)
            tail.fragmentParametersStart = output.count
            append(input[(lastHash + 1)...], .fragment, scan, to: &output)
            tail.fragment = start..<output.count
        }
        return tail
    }

    /// Reads `scheme:` and writes it in lower case with its colon; returns the index after the colon and, for a
    /// special scheme, its default port.
    private static func readScheme(_ input: Bytes, into output: inout OutputBuffer) throws(RouteError) -> (Int, UInt16?)
    {
        let noScheme = RouteError.refused(
            .noScheme,
            part: .scheme,
            "the link does not start with a scheme such as 'myapp:' or 'https:'"
        )
        guard let first = input.first, first | 0x20 >= UInt8(ascii: "a"), first | 0x20 <= UInt8(ascii: "z") else {
            throw noScheme
        }
        var end = 1
        while end < input.count && InputCheck.isSchemeByte(input[end]) { end += 1 }
        guard end < input.count, input[end] == colon else { throw noScheme }
        if input[..<end].contains(where: { $0 >= 0x41 && $0 <= 0x5A }) {
            for byte in input[..<end] { output.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
        } else {
            output.append(input[..<end])
        }
        let scheme = output.written
        var defaultPort: UInt16?
        switch SchemeKind(scheme) {
        case .blocked:
            throw .refused(
                .blockedScheme,
                part: .scheme,
                "the scheme '\(String(decoding: scheme, as: UTF8.self))' is never a link"
            )
        case .special(let port): defaultPort = port
        case .other: break
        }
        output.append(colon)
        return (end + 1, defaultPort)
    }

    /// Reads host and port from `start` up to the first `/`, `?` or `#`, writing the host; returns its kind, the
    /// port and where the path starts.
    private static func readAuthority(
        _ input: Bytes,
        from start: Int,
        isSpecial: Bool,
        into output: inout OutputBuffer
    ) throws(RouteError) -> (LinkURL.Layout.HostKind, UInt16?, Int) {
        // One pass to the end of the authority, noting its first `:` and `]` and any `@`; the bytes of a host
        // name all sort above `@` except digits, `-` and `.`, so one comparison passes most.
        var end = start
        var firstColonAt = -1
        var firstCloseAt = -1
        var hasAt = false
        while end < input.count {
            let byte = input[end]
            if byte <= UInt8(ascii: "@") || byte == UInt8(ascii: "]") {
                if byte == slash || byte == question || byte == numberSign { break }
                if byte == colon && firstColonAt < 0 { firstColonAt = end }
                if byte == UInt8(ascii: "]") && firstCloseAt < 0 { firstCloseAt = end }
                if byte == UInt8(ascii: "@") { hasAt = true }
            }
            end += 1
        }
        let firstColon = firstColonAt < 0 ? nil : firstColonAt
        let firstClose = firstCloseAt < 0 ? nil : firstCloseAt
        if hasAt {
            throw .refused(.userinfo, part: .userinfo, "a link must not carry userinfo ('user@' before the host)")
        }
        var hostEnd = end
        var portStart: Int?
        if start < end && input[start] == UInt8(ascii: "[") {
            if let close = firstClose, close + 1 < end, input[close + 1] == colon {
                hostEnd = close + 1
                portStart = close + 2
            }
        } else if let separator = firstColon {
            hostEnd = separator
            portStart = separator + 1
        }
        let hostBytes = input[start..<hostEnd]
        let kind: LinkURL.Layout.HostKind
        if hostBytes.isEmpty {
            guard !isSpecial else { throw .refused(.badHost, part: .host, "the link has no host") }
            guard portStart == nil else { throw .refused(.badHost, part: .host, "the link has a port but no host") }
            kind = .opaque
        } else {
            kind = try HostParser.parse(hostBytes, isSpecial: isSpecial, into: &output)
        }
        let port = try portStart.flatMap { (start) throws(RouteError) in try readPort(input[start..<end]) }
        return (kind, port, end)
    }

    private static func readPort(_ digits: Bytes.SubSequence) throws(RouteError) -> UInt16? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else {
                throw .refused(
                    .badPort,
                    part: .port,
                    "port '\(String(decoding: digits, as: UTF8.self))' is not a number"
                )
            }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            guard value <= Int(UInt16.max) else {
                throw .refused(
                    .badPort,
                    part: .port,
                    "port '\(String(decoding: digits, as: UTF8.self))' is out of range"
                )
            }
        }
        return UInt16(value)
    }

    /// Writes the path percent-encoded; refuses dot segments, which the standard would resolve away.
    private static func readPath(
        _ bytes: Bytes.SubSequence,
        isSpecial: Bool,
        isOpaque: Bool,
        mayNeedEncoding: Bool,
        into output: inout OutputBuffer
    ) throws(RouteError) {
        var segmentStart = bytes.startIndex
        for index in bytes.startIndex...bytes.endIndex where index == bytes.endIndex || bytes[index] == slash {
            let segment = bytes[segmentStart..<index]
            if isDotSegment(segment) {
                throw .refused(
                    .dotSegment,
                    part: .path,
                    "the path holds the dot segment '\(String(decoding: segment, as: UTF8.self))'"
                )
            }
            segmentStart = index + 1
        }
        if bytes.isEmpty && isSpecial && !isOpaque {
            output.append(slash)
        } else if mayNeedEncoding && bytes.contains(where: { PercentEncodeSet.path.contains($0) }) {
            PercentEncoding.append(bytes, to: &output, encoding: isOpaque ? .c0Control : .path)
        } else {
            output.append(bytes)
        }
    }

    /// `.`, `..` and their percent-encoded spellings (`%2e`, `.%2E` …).
    private static func isDotSegment(_ segment: Bytes.SubSequence) -> Bool {
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

    /// Appends `bytes`, percent-encoding those in `set` up to the last byte the scan saw to encode.
    private static func append(
        _ bytes: Bytes.SubSequence,
        _ set: PercentEncodeSet,
        _ scan: InputScan,
        to output: inout OutputBuffer
    ) {
        guard scan.needsEncoding && bytes.startIndex <= scan.lastToEncode else {
            output.append(bytes)
            return
        }
        let end = Swift.min(bytes.endIndex, scan.lastToEncode + 1)
        PercentEncoding.append(bytes[..<end], to: &output, encoding: set)
        if end < bytes.endIndex { output.append(bytes[end...]) }
    }
}
