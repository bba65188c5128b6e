/// The layout of the commonest link, read without writing or comparing anything: a lower-case scheme, `//`, a
/// lower-case host of letters, digits, dots and hyphens, an optional port, a path without dot segments, and no
/// byte the serialisation would change.
///
/// Any other shape gives `nil`, and the parser takes its general road; so this reading accepts only links that
/// road accepts, with the same layout (``ParserShortcutTests`` compare the two over every test input).
enum PlainLink {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// The layout of `input`, or `nil` when it is not plain. `scan` must not have seen a byte to encode.
    static func layout(_ input: Bytes, _ scan: InputScan) -> LinkURL.Layout? {
        let count = input.count
        guard let schemeEnd = schemeEnd(input) else { return nil }
        let defaultPort: UInt16?
        switch SchemeKind(Bytes(rebasing: input[..<schemeEnd])) {
        case .blocked: return nil
        case .special(let port): defaultPort = port
        case .other: defaultPort = nil
        }
        let hostStart = schemeEnd + 3
        guard hostStart < count, input[schemeEnd + 1] == slash, input[schemeEnd + 2] == slash,
            let hostEnd = hostEnd(input, from: hostStart, isSpecial: defaultPort != nil)
        else { return nil }
        var index = hostEnd
        var port: UInt16?
        if index < count && input[index] == UInt8(ascii: ":") {
            guard let (value, end) = readPort(input, from: index + 1), value != defaultPort else { return nil }
            port = value
            index = end
        }
        let pathStart = index
        let pathEnd = scan.firstQuestion ?? scan.firstHash ?? count
        guard pathStart == pathEnd || input[pathStart] == slash, defaultPort == nil || pathStart < pathEnd,
            !hasDotSegment(input, pathStart..<pathEnd)
        else { return nil }
        let queryRange = scan.firstQuestion.map { ($0 + 1)..<(scan.firstHash ?? count) }
        let fragmentRange = scan.firstHash.map { ($0 + 1)..<count }
        return LinkURL.Layout(
            schemeEnd: schemeEnd,
            hostKind: defaultPort == nil ? .opaque : .domain,
            hostRange: hostStart..<hostEnd,
            port: port,
            pathRange: pathStart..<pathEnd,
            hasOpaquePath: false,
            queryRange: queryRange,
            fragmentRange: fragmentRange,
            fragmentParametersStart: scan.lastHash.map { $0 + 1 } ?? count
        )
    }

    private static let slash = UInt8(ascii: "/")

    private static func isLowerLetter(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "a") < 26 }
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Where the colon after a lower-case scheme stands.
    private static func schemeEnd(_ input: Bytes) -> Int? {
        guard isLowerLetter(input[0]) else { return nil }
        var index = 1
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: ":") { return index }
            guard
                isLowerLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            else { return nil }
            index += 1
        }
        return nil
    }

    /// Where a host of lower-case labels ends: at `:`, `/`, `?`, `#` or the end. `nil` for an empty label, an
    /// `xn--` label, any other byte, or (special schemes) a last label that may be a number, an IPv4 address's.
    private static func hostEnd(_ input: Bytes, from start: Int, isSpecial: Bool) -> Int? {
        var index = start
        var labelStart = start
        while index < input.count {
            let byte = input[index]
            if isLowerLetter(byte) || isDigit(byte) {
                index += 1
            } else if byte == UInt8(ascii: "-") {
                if index == labelStart + 2 && input[labelStart] == UInt8(ascii: "x")
                    && input[labelStart + 1] == UInt8(ascii: "n")
                {
                    return nil
                }
                index += 1
            } else if byte == UInt8(ascii: ".") {
                guard index > labelStart else { return nil }
                index += 1
                labelStart = index
            } else if byte == UInt8(ascii: ":") || byte == slash || byte == UInt8(ascii: "?")
                || byte == UInt8(ascii: "#")
            {
                break
            } else {
                return nil
            }
        }
        guard labelStart < index, !isSpecial || !isDigit(input[labelStart]) else { return nil }
        return index
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
