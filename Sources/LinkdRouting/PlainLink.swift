/// The layout of the commonest link, read without writing or comparing anything: a scheme, `//`, a host of ASCII
/// letters, digits, dots and hyphens (or an IPv6 address as it is serialised), an optional port, a path without dot
/// segments, and no byte to encode. Most such links are their own serialisation; the others differ only in the case
/// of the scheme or a special host, a default port, or the `/` of an empty special path, and are written in one copy.
///
/// Any other shape gives `nil`, and the parser takes its general road; so this reading accepts only links that
/// road accepts, with the same serialisation and layout (``ParserShortcutTests`` compare the two over every test
/// input).
enum PlainLink {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// A link read on the plain road, and what its serialisation changes: the scheme or a special host in
    /// lower case, a default port dropped, the `/` of an empty special path added. `layout` is the
    /// serialisation's.
    struct Reading {
        let layout: LinkURL.Layout
        /// How many leading bytes are written in lower case (0: none).
        let lowercased: Int
        /// The default port's `:` and digits, left out.
        let droppedPort: Range<Int>?
        /// Whether a `/` is written where the path starts.
        let addsSlash: Bool
        /// Where the path starts in the input.
        let pathStart: Int
        /// Whether the scheme is special.
        let isSpecial: Bool

        /// Whether the serialisation is the input itself.
        var isVerbatim: Bool { lowercased == 0 && droppedPort == nil && !addsSlash }
    }

    /// The layout of `input` when it is its own serialisation and plain, or `nil`.
    static func layout(_ input: Bytes, _ scan: InputScan) -> LinkURL.Layout? {
        guard let reading = read(input, scan), reading.isVerbatim else { return nil }
        return reading.layout
    }

    /// The reading of `input`, or `nil` when it is not plain but for the changes a ``Reading`` names. `scan` must
    /// not have seen a byte to encode before the end of the path.
    static func read(_ input: Bytes, _ scan: InputScan) -> Reading? {
        let count = input.count
        guard let (schemeEnd, schemeHasCapitals) = schemeEnd(input) else { return nil }
        let kind =
            schemeHasCapitals
            ? kindOfCapitalScheme(Bytes(rebasing: input[..<schemeEnd]))
            : SchemeKind(Bytes(rebasing: input[..<schemeEnd]))
        let defaultPort: UInt16?
        switch kind {
        case .blocked: return nil
        case .special(let port): defaultPort = port
        case .other: defaultPort = nil
        }
        let isSpecial = defaultPort != nil
        let hostStart = schemeEnd + 3
        guard hostStart < count, input[schemeEnd + 1] == slash, input[schemeEnd + 2] == slash,
            let (hostEnd, hostHasCapitals, lastLabelIsNumeric) = hostEnd(input, from: hostStart)
                ?? ipv6HostEnd(input, from: hostStart)
        else { return nil }
        guard
            let hostKind = hostKind(
                input,
                hostStart..<hostEnd,
                isSpecial: isSpecial,
                lastLabelIsNumeric: lastLabelIsNumeric
            ),
            let (port, droppedPort, pathStart) = portPart(input, from: hostEnd, defaultPort: defaultPort)
        else { return nil }
        let pathEnd = scan.firstQuestion ?? scan.firstHash ?? count
        guard pathStart == pathEnd || input[pathStart] == slash, !hasDotSegment(input, pathStart..<pathEnd) else {
            return nil
        }
        let addsSlash = isSpecial && pathStart == pathEnd
        // Where the serialisation's parts stand: from the path on, moved by what was dropped and added.
        let dropped = droppedPort?.count ?? 0
        let shift = (addsSlash ? 1 : 0) - dropped
        let layout = LinkURL.Layout(
            schemeEnd: schemeEnd,
            hostKind: hostKind,
            hostRange: hostStart..<hostEnd,
            port: port,
            pathRange: (pathStart - dropped)..<(pathEnd + shift),
            hasOpaquePath: false,
            queryRange: scan.firstQuestion.map { ($0 + 1 + shift)..<((scan.firstHash ?? count) + shift) },
            fragmentRange: scan.firstHash.map { ($0 + 1 + shift)..<(count + shift) },
            fragmentParametersStart: (scan.lastHash.map { $0 + 1 } ?? count) + shift
        )
        let lowercased = hostHasCapitals && isSpecial ? hostEnd : schemeHasCapitals ? schemeEnd : 0
        return Reading(
            layout: layout,
            lowercased: lowercased,
            droppedPort: droppedPort,
            addsSlash: addsSlash,
            pathStart: pathStart,
            isSpecial: isSpecial
        )
    }

    /// The kind of the host at `range`, or `nil` when it is not plain. A special host whose last label starts with a
    /// digit is an IPv4 address: plain in its own form only. (An IPv6 address counts as numeric too, so that a name is
    /// told from it without another test.)
    @inline(__always)
    private static func hostKind(
        _ input: Bytes,
        _ range: Range<Int>,
        isSpecial: Bool,
        lastLabelIsNumeric: Bool
    ) -> LinkURL.Layout.HostKind? {
        if lastLabelIsNumeric && input[range.lowerBound] == UInt8(ascii: "[") { return .ipv6 }
        guard isSpecial else { return .opaque }
        guard lastLabelIsNumeric else { return .domain }
        return IPv4Parser.parseDottedDecimal(input[range]).map { .ipv4($0) }
    }

    /// The port after the host (`nil` when there is none or it is the scheme's default, which is then dropped), where
    /// a dropped one stood, and where the path starts; `nil` when the port is not plain.
    @inline(__always)
    private static func portPart(
        _ input: Bytes,
        from index: Int,
        defaultPort: UInt16?
    ) -> (port: UInt16?, dropped: Range<Int>?, end: Int)? {
        guard index < input.count && input[index] == UInt8(ascii: ":") else { return (nil, nil, index) }
        guard let (value, end) = readPort(input, from: index + 1) else { return nil }
        return value == defaultPort ? (nil, index..<end, end) : (value, nil, end)
    }

    /// The kind of a scheme with capitals, named in lower case. (Not inlined: its buffer on the stack would give
    /// every plain reading the stack protector's prologue and epilogue.)
    @inline(never)
    private static func kindOfCapitalScheme(_ scheme: Bytes) -> SchemeKind {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scheme.count) { lowered in
            for index in 0..<scheme.count { lowered[index] = lowerCased(scheme[index]) }
            return SchemeKind(Bytes(lowered))
        }
    }

    /// The serialisation of `input` read as `reading`, written in one copy.
    static func serialise(_ input: Bytes, _ reading: Reading) -> String {
        String(unsafeUninitializedCapacity: input.count + 1) { buffer in
            guard let source = input.baseAddress, let target = buffer.baseAddress else { return 0 }
            // The authority copied whole, then its first bytes put in lower case where they stand.
            var written = reading.droppedPort?.lowerBound ?? reading.pathStart
            target.update(from: source, count: written)
            for index in 0..<reading.lowercased { target[index] = lowerCased(target[index]) }
            if reading.addsSlash {
                target[written] = slash
                written += 1
            }
            let rest = input.count - reading.pathStart
            (target + written).update(from: source + reading.pathStart, count: rest)
            return written + rest
        }
    }

    /// The serialisation of `input` read as `reading`, whose query or fragment holds bytes to encode (and nothing
    /// before them does): the plain copy up to the end of the path, then those two parts written as the general road
    /// writes them.
    static func serialise(_ input: Bytes, _ reading: Reading, encodingAfterThePath scan: InputScan) -> LinkURL {
        let pathEnd = scan.firstQuestion ?? scan.firstHash ?? input.count
        let layout = reading.layout
        var tail = LinkURLParser.Tail(fragmentParametersStart: 0)
        // Percent-encoding triples a byte to encode, and all of them stand between the first and the last the scan
        // saw: no more room than that, since a link keeps its `href`'s allocation as long as it lives.
        let capacity = input.count + 1 + 2 * (scan.lastToEncode + 1 - scan.firstToEncode)
        let href = String(unsafeUninitializedCapacity: capacity) { buffer in
            var output = OutputBuffer(buffer)
            let authorityEnd = reading.droppedPort?.lowerBound ?? reading.pathStart
            for index in 0..<reading.lowercased { output.append(lowerCased(input[index])) }
            output.append(input[reading.lowercased..<authorityEnd])
            if reading.addsSlash { output.append(slash) }
            output.append(input[reading.pathStart..<pathEnd])
            tail = LinkURLParser.writeQueryAndFragment(
                input,
                query: scan.firstQuestion,
                isSpecial: reading.isSpecial,
                scan,
                into: &output
            )
            return output.count
        }
        let encoded = LinkURL.Layout(
            schemeEnd: layout.schemeEnd,
            hostKind: layout.hostKind,
            hostRange: layout.hostRange,
            port: layout.port,
            pathRange: layout.pathRange,
            hasOpaquePath: false,
            queryRange: tail.query,
            fragmentRange: tail.fragment,
            fragmentParametersStart: tail.fragmentParametersStart,
            escapesAreOwn: !scan.hasPercent
        )
        return LinkURL(href: href, layout: encoded)
    }

    private static func lowerCased(_ byte: UInt8) -> UInt8 { isUpperLetter(byte) ? byte | 0x20 : byte }
    private static func isUpperLetter(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "A") < 26 }

    private static let slash = UInt8(ascii: "/")

    private static func isLowerLetter(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "a") < 26 }
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Where the colon after the scheme stands, and whether the scheme has capitals.
    private static func schemeEnd(_ input: Bytes) -> (Int, Bool)? {
        guard isLowerLetter(input[0] | 0x20) else { return nil }
        if let lanes = AuthorityLanes.schemeEnd(input) { return lanes }
        var hasCapitals = isUpperLetter(input[0])
        var index = 1
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: ":") { return (index, hasCapitals) }
            if isUpperLetter(byte) {
                hasCapitals = true
            } else {
                guard
                    isLowerLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                        || byte == UInt8(ascii: ".")
                else { return nil }
            }
            index += 1
        }
        return nil
    }

    /// Where a host of ASCII labels ends: at `:`, `/`, `?`, `#` or the end; whether it has capitals, and whether
    /// its last label starts with a digit (in a special host, an IPv4 address's). `nil` for an empty label, an
    /// `xn--` label or any other byte.
    static func hostEnd(
        _ input: Bytes,
        from start: Int
    ) -> (end: Int, hasCapitals: Bool, lastLabelIsNumeric: Bool)? {
        // Letters, digits and dots sixteen bytes at a time while sixteen remain; the byte that stops that reading
        // (a hyphen, the host's end, a byte no plain host holds) and the last few bytes one at a time.
        var labels = AuthorityLanes.HostState(index: start, labelStart: start)
        while true {
            guard AuthorityLanes.skipHostLabels(input, &labels) else { return nil }
            guard labels.index < input.count else { break }
            let byte = input[labels.index]
            if isLowerLetter(byte) || isDigit(byte) {
                // Read here only within the last sixteen bytes.
            } else if isUpperLetter(byte) {
                labels.hasCapitals = true
            } else if byte == UInt8(ascii: "-") {
                let labelStart = labels.labelStart
                if labels.index == labelStart + 2 && input[labelStart] | 0x20 == UInt8(ascii: "x")
                    && input[labelStart + 1] | 0x20 == UInt8(ascii: "n")
                {
                    return nil
                }
            } else if byte == UInt8(ascii: ".") {
                guard labels.index > labels.labelStart else { return nil }
                labels.labelStart = labels.index + 1
            } else if byte == UInt8(ascii: ":") || byte == slash || byte == UInt8(ascii: "?")
                || byte == UInt8(ascii: "#")
            {
                break
            } else {
                return nil
            }
            labels.index += 1
        }
        guard labels.labelStart < labels.index else { return nil }
        return (labels.index, labels.hasCapitals, isDigit(input[labels.labelStart]))
    }

    /// Where a bracketed IPv6 host ends, after its `]`, when the address stands as the serialisation writes it
    /// (compressed, in lower case, without an IPv4 tail); `nil` for any other host, which the general road reads.
    /// What follows the `]` is the caller's to check, as after a name: a port, or the path, query or fragment. The
    /// address counts as numeric (`lastLabelIsNumeric`).
    private static func ipv6HostEnd(
        _ input: Bytes,
        from start: Int
    ) -> (end: Int, hasCapitals: Bool, lastLabelIsNumeric: Bool)? {
        guard input[start] == UInt8(ascii: "["),
            let close = input[(start + 1)...].firstIndex(of: UInt8(ascii: "]")),
            let address = IPv6Address(input[(start + 1)..<close])
        else { return nil }
        var written = OutputBuffer(verifying: Bytes(rebasing: input[(start + 1)..<close]))
        address.serialise(into: &written)
        guard !written.diverged && written.count == close - start - 1 else { return nil }
        return (close + 1, false, true)
    }

    /// A port of one to five digits without a leading zero, up to 65535, ending the authority; and where it ends.
    private static func readPort(_ input: Bytes, from start: Int) -> (UInt16, Int)? {
        var index = start
        var value = 0
        while index < input.count && isDigit(input[index]) && index - start < 5 {
            value = value * 10 + Int(input[index] - UInt8(ascii: "0"))
            index += 1
        }
        guard index > start, input[start] != UInt8(ascii: "0"), value <= Int(UInt16.max) else { return nil }
        guard
            index == input.count || input[index] == slash || input[index] == UInt8(ascii: "?")
                || input[index] == UInt8(ascii: "#")
        else { return nil }
        return (UInt16(value), index)
    }

    /// Whether a segment of the path may be a dot segment (`.`, `..`, `%2e` …): it starts with `.` or `%`.
    private static func hasDotSegment(_ input: Bytes, _ path: Range<Int>) -> Bool {
        var index = path.lowerBound
        while index + 1 < path.upperBound {
            if input[index] == slash && (input[index + 1] == UInt8(ascii: ".") || input[index + 1] == UInt8(ascii: "%"))
            {
                return true
            }
            index += 1
        }
        return false
    }
}
