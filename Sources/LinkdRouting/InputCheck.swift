/// The checks the strict reading makes on the whole input before its structure is read: UTF-8, white space, controls,
/// backslashes and stray `%`.
enum InputCheck {
    /// Throws the first refusal `input` earns as a sequence of characters.
    static func check(_ input: [UInt8]) throws(RouteError) {
        var firstNonASCII: Int?
        for (offset, byte) in input.enumerated() {
            if byte >= 0x80 {
                firstNonASCII = offset
                break
            }
        }
        var scalars: [(offset: Int, scalar: Unicode.Scalar)] = []
        if firstNonASCII != nil {
            guard let text = String(validating: input, as: UTF8.self) else {
                throw .refused(.invalidUTF8, part: .input, "the link is not valid UTF-8")
            }
            var offset = 0
            for scalar in text.unicodeScalars {
                scalars.append((offset, scalar))
                offset += UTF8.width(scalar)
            }
        } else {
            scalars = input.enumerated().map { ($0.offset, Unicode.Scalar($0.element)) }
        }
        if let first = scalars.first?.scalar, let last = scalars.last?.scalar, isWhitespace(first) || isWhitespace(last)
        {
            throw .refused(.surroundingWhitespace, part: .input, "the link starts or ends with white space")
        }
        for (offset, scalar) in scalars {
            if isWhitespace(scalar) || isControl(scalar) || scalar == "\\" {
                let part = locate(offset, in: input)
                throw .refused(
                    .invalidCharacter,
                    part: part,
                    "\(describe(scalar)) is not allowed in a link (in the \(part.rawValue))"
                )
            }
        }
        var offset = 0
        while let percent = input[offset...].firstIndex(of: UInt8(ascii: "%")) {
            guard percent + 2 < input.count, PercentEncoding.hexValue(input[percent + 1]) != nil,
                PercentEncoding.hexValue(input[percent + 2]) != nil
            else {
                let part = locate(percent, in: input)
                throw .refused(
                    .badPercentEncoding,
                    part: part,
                    "'%' is not followed by two hex digits in the \(part.rawValue)"
                )
            }
            offset = percent + 3
        }
    }

    /// Whether `input`, in which the scan found no ASCII byte to refuse, is valid UTF-8 without a non-ASCII white
    /// space or C1 control: then ``check(_:)`` would pass it, and the link need not be read as scalars. `false`
    /// sends the link to ``check(_:)``, which names the offence.
    static func isClean(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = UnsafeRawPointer(input.baseAddress) else { return true }
        let count = input.count
        var index = 0
        while index < count {
            // ASCII eight bytes at a time; only the sequences of non-ASCII scalars are decoded.
            if index + 8 <= count
                && base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = input[index]
            guard lead >= 0x80 else {
                index += 1
                continue
            }
            guard let (scalar, length) = scalar(input, at: index), !isWhitespace(scalar), !isControl(scalar) else {
                return false
            }
            index += length
        }
        return true
    }

    /// The scalar value of the UTF-8 sequence at `index` and its length; `nil` when the sequence is not well formed
    /// (Unicode's table 3-7, which the standard library's parser follows: no overlong form, no surrogate, nothing
    /// above U+10FFFF). Decoded by hand: a link holds few such sequences, and the generic parser costs more each.
    @inline(__always)
    private static func scalar(_ input: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int)? {
        let lead = input[index]
        func trailing(_ offset: Int, from low: UInt8 = 0x80, to high: UInt8 = 0xBF) -> UInt32? {
            guard index + offset < input.count, low...high ~= input[index + offset] else { return nil }
            return UInt32(input[index + offset] & 0x3F)
        }
        switch lead {
        case 0xC2...0xDF:
            guard let first = trailing(1) else { return nil }
            return (UInt32(lead & 0x1F) << 6 | first, 2)
        case 0xE0...0xEF:
            let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
            let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
            guard let first = trailing(1, from: low, to: high), let second = trailing(2) else { return nil }
            return (UInt32(lead & 0x0F) << 12 | first << 6 | second, 3)
        case 0xF0...0xF4:
            let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
            let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
            guard let first = trailing(1, from: low, to: high), let second = trailing(2), let third = trailing(3)
            else { return nil }
            return (UInt32(lead & 0x07) << 18 | first << 12 | second << 6 | third, 4)
        default:
            return nil
        }
    }

    /// Unicode White_Space (NBSP, U+2028, U+3000 … included).
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool { isWhitespace(scalar.value) }

    private static func isWhitespace(_ value: UInt32) -> Bool {
        switch value {
        // The whole White_Space property, a stable list (a table lookup of the property costs more than a link).
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// C0 and C1 controls and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar.value) }

    private static func isControl(_ value: UInt32) -> Bool { value < 0x20 || (value >= 0x7F && value <= 0x9F) }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        if scalar == "\\" { return "a backslash" }
        if scalar == " " { return "a space" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The part of the link that holds the byte at `offset`, read the way the parser will read the link.
    static func locate(_ offset: Int, in input: [UInt8]) -> LinkPart {
        guard let colon = input.firstIndex(where: { !isSchemeByte($0) }), input[colon] == UInt8(ascii: ":"),
            colon > 0
        else { return .input }
        if offset <= colon { return .scheme }
        let hash = input.firstIndex(of: UInt8(ascii: "#")) ?? input.count
        if offset > hash { return .fragment }
        let question = input[..<hash].firstIndex(of: UInt8(ascii: "?")) ?? hash
        if offset > question { return .query }
        let afterScheme = input[(colon + 1)...]
        if afterScheme.starts(with: "//".utf8) {
            let start = colon + 3
            let end = input[start...].firstIndex(where: isAuthorityEnd) ?? input.count
            if offset < end {
                // A backslash is where parsers disagree on the host (WHATWG ends the authority there): it is the
                // host that is ambiguous, whatever follows.
                if input[offset] == UInt8(ascii: "\\") { return .host }
                let atSign = input[start..<end].lastIndex(of: UInt8(ascii: "@"))
                if let atSign, offset < atSign { return .userinfo }
                return input[start..<end].contains(UInt8(ascii: ":")) && isInPort(offset, input[start..<end])
                    ? .port : .host
            }
        }
        return .path
    }

    private static func isInPort(_ offset: Int, _ authority: ArraySlice<UInt8>) -> Bool {
        guard authority.first != UInt8(ascii: "["), let colon = authority.lastIndex(of: UInt8(ascii: ":")) else {
            return false
        }
        return offset > colon
    }

    private static func isAuthorityEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// Bytes a scheme may hold after its first letter.
    static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }
}
