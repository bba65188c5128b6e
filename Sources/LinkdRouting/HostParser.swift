/// The WHATWG host parser, restricted by linkd's strict reading: special hosts must be ASCII and hold no `%`.
enum HostParser {
    /// Reads the host of a link of a special scheme (`isSpecial`) or an opaque one and appends its serialisation.
    ///
    /// - Throws: `bad_host` or `non_ascii_host`, naming the host; an empty host is the caller's to refuse.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>.SubSequence,
        isSpecial: Bool,
        into output: inout OutputBuffer
    ) throws(RouteError) -> LinkURL.Layout.HostKind {
        // The common cases: a lower-case ASCII name, or a custom scheme's plain host; nothing to change.
        if isSpecial && !bytes.contains(where: needsDomainWork) && !IPv4Parser.mayEndInNumber(bytes) {
            output.append(bytes)
            return .domain
        }
        if !isSpecial && !bytes.contains(where: needsOpaqueWork) {
            output.append(bytes)
            return .opaque
        }
        if isSpecial, let kind = appendSimpleHost(bytes, into: &output) { return kind }
        if bytes.count >= 2 && bytes.first == UInt8(ascii: "[") && bytes.last == UInt8(ascii: "]"),
            let address = IPv6Address(bytes[(bytes.startIndex + 1)..<(bytes.endIndex - 1)])
        {
            output.append(UInt8(ascii: "["))
            address.serialise(into: &output)
            output.append(UInt8(ascii: "]"))
            return .ipv6
        }
        let host = try parse(Array(bytes)[...], isSpecial: isSpecial)
        output.append(host.description)
        switch host {
        case .domain: return .domain
        case .opaque: return .opaque
        case .ipv4(let address): return .ipv4(address)
        case .ipv6: return .ipv6
        }
    }

    /// Appends a special host that needs no more than lower-casing or is an IPv4 address in its own form: a host
    /// the plain road reads (``PlainLink/hostEnd(_:from:)``). `nil` (nothing appended) for any other, which the
    /// general reading takes.
    private static func appendSimpleHost(
        _ bytes: UnsafeBufferPointer<UInt8>.SubSequence,
        into output: inout OutputBuffer
    ) -> LinkURL.Layout.HostKind? {
        guard let (end, _, lastLabelIsNumeric) = PlainLink.hostEnd(bytes.base, from: bytes.startIndex),
            end == bytes.endIndex
        else { return nil }
        if lastLabelIsNumeric {
            guard let address = IPv4Parser.parseDottedDecimal(bytes) else { return nil }
            output.append(bytes)
            return .ipv4(address)
        }
        for byte in bytes { output.append(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte) }
        return .domain
    }

    /// Bytes that make an opaque host more than a copy: non-ASCII, `[`, and the forbidden host code points.
    private static func needsOpaqueWork(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "[") || isForbiddenHostByte(byte)
    }

    /// Bytes that make a special host more than a copy: upper case, `-` (for `xn--`), and everything that is
    /// refused or read specially.
    private static func needsDomainWork(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."): false
        default: true
        }
    }

    /// Reads the host of a link of a special scheme (`isSpecial`) or an opaque one.
    static func parse(_ bytes: ArraySlice<UInt8>, isSpecial: Bool) throws(RouteError) -> LinkHost {
        var text: String { String(decoding: bytes, as: UTF8.self) }  // for a refusal only
        if bytes.first == UInt8(ascii: "[") {
            guard bytes.count >= 2, bytes.last == UInt8(ascii: "]"),
                let address = IPv6Address(bytes.dropFirst().dropLast())
            else { throw .refused(.badHost, part: .host, "'\(text)' is not a valid IPv6 address") }
            return .ipv6(address)
        }
        if let byte = bytes.first(where: isForbiddenHostByte) {
            throw .refused(
                .badHost,
                part: .host,
                "host '\(text)' holds the forbidden character '\(Character(Unicode.Scalar(byte)))'"
            )
        }
        guard isSpecial else {
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            PercentEncoding.append(bytes, to: &output, encoding: .c0Control)
            return .opaque(String(decoding: output, as: UTF8.self))
        }
        if bytes.contains(where: { $0 >= 0x80 }) {
            throw .refused(
                .nonASCIIHost,
                part: .host,
                "host '\(text)' is not plain ASCII; an international name must arrive in its 'xn--' form"
            )
        }
        if bytes.contains(UInt8(ascii: "%")) {
            throw .refused(
                .badHost,
                part: .host,
                "host '\(text)' holds a '%'; percent-encoding is not allowed in a host"
            )
        }
        let lowered = bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        let labels = lowered.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for label in labels where label.starts(with: "xn--".utf8) {
            guard let decoded = Punycode.decode(label.dropFirst(4)), Punycode.isValidLabel(decoded) else {
                throw .refused(
                    .badHost,
                    part: .host,
                    "'\(String(decoding: label, as: UTF8.self))' in host '\(text)' is not a valid international label"
                )
            }
        }
        if IPv4Parser.endsInNumber(labels) {
            guard let address = IPv4Parser.parse(labels) else {
                throw .refused(.badHost, part: .host, "host '\(text)' ends in a number but is not a valid IPv4 address")
            }
            return .ipv4(address)
        }
        return .domain(String(decoding: lowered, as: UTF8.self))
    }

    /// The WHATWG forbidden host code points that can reach the host parser (`%` is judged separately).
    private static func isForbiddenHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, 0x7F, UInt8(ascii: "#"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "<"),
            UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"),
            UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"):
            true
        default: false
        }
    }
}

/// The WHATWG IPv4 parser: decimal, octal (`0` prefix) and hex (`0x` prefix) parts, one to four of them.
enum IPv4Parser {
    typealias Label = ArraySlice<UInt8>

    /// Whether the last label (a trailing empty one aside) is a number, which makes the host an IPv4 address.
    static func endsInNumber(_ labels: [Label]) -> Bool {
        var labels = labels[...]
        if labels.last?.isEmpty == true {
            guard labels.count > 1 else { return false }
            labels = labels.dropLast()
        }
        guard let last = labels.last, !last.isEmpty else { return false }
        if last.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        return parseNumber(last) != nil
    }

    /// A quick test that lets most names skip ``endsInNumber(_:)``: whether the last label starts with a digit.
    static func mayEndInNumber(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence) -> Bool {
        var end = bytes.endIndex
        if end > bytes.startIndex && bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
        let lastDot = bytes[bytes.startIndex..<end].lastIndex(of: UInt8(ascii: ".")).map { $0 + 1 } ?? bytes.startIndex
        return lastDot < end && bytes[lastDot] >= UInt8(ascii: "0") && bytes[lastDot] <= UInt8(ascii: "9")
    }

    /// The address of a host in the form IPv4 addresses serialise to (four decimal parts of 0 to 255 without
    /// leading zeros, no trailing dot), or `nil` for any other host.
    static func parseDottedDecimal(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence) -> UInt32? {
        var address: UInt32 = 0
        var part: UInt32 = 0
        var digits = 0
        var parts = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, parts < 3 else { return nil }
                address = address << 8 | part
                (part, digits, parts) = (0, 0, parts + 1)
                continue
            }
            let digit = UInt32(byte &- UInt8(ascii: "0"))
            guard digit < 10, digits < 3, digits == 0 || part != 0 else { return nil }
            part = part * 10 + digit
            digits += 1
            guard part <= 255 else { return nil }
        }
        guard digits > 0, parts == 3 else { return nil }
        return address << 8 | part
    }

    /// The address, or `nil` when a part is not a number or a value is out of range.
    static func parse(_ labels: [Label]) -> UInt32? {
        var labels = labels[...]
        if labels.last?.isEmpty == true && labels.count > 1 { labels = labels.dropLast() }
        guard labels.count <= 4 else { return nil }
        var numbers: [UInt64] = []
        for label in labels {
            guard let number = parseNumber(label) else { return nil }
            numbers.append(number)
        }
        guard let last = numbers.popLast() else { return nil }
        guard numbers.allSatisfy({ $0 <= 255 }), last < UInt64(1) << (8 * UInt64(4 - numbers.count)) else {
            return nil
        }
        var address = last
        for (index, number) in numbers.enumerated() { address += number << (8 * UInt64(3 - index)) }
        return UInt32(address)
    }

    /// One part as the standard reads it; values above 2³² saturate (they are out of range either way).
    private static func parseNumber(_ label: Label) -> UInt64? {
        guard !label.isEmpty else { return nil }
        var digits = label
        var radix: UInt64 = 10
        if digits.count >= 2, digits.first == UInt8(ascii: "0"),
            digits.dropFirst().first.map({ $0 | 0x20 }) == UInt8(ascii: "x")
        {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = PercentEncoding.hexValue(byte).map(UInt64.init), digit < radix else { return nil }
            value = min(value * radix + digit, UInt64(1) << 33)
        }
        return value
    }
}
