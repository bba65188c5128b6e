/// An IPv6 address read by the WHATWG IPv6 parser and written by its serialiser.
public struct IPv6Address: Sendable, Hashable, CustomStringConvertible {
    /// The eight pieces, kept in a vector so that a link's layout holds no reference.
    private let vector: SIMD8<UInt16>

    /// The eight 16-bit pieces, most significant first.
    public var pieces: [UInt16] { (0..<8).map { vector[$0] } }

    /// Reads the text between `[` and `]`; `nil` when the standard's IPv6 parser fails on it.
    init?(_ input: ArraySlice<UInt8>) {
        guard let vector = Array(input).withUnsafeBufferPointer(Self.parse) else { return nil }
        self.vector = vector
    }

    /// Reads the text between `[` and `]` where it stands in a link; `nil` when the parser fails on it.
    init?(_ input: UnsafeBufferPointer<UInt8>.SubSequence) {
        guard let vector = Self.parse(UnsafeBufferPointer(rebasing: input)) else { return nil }
        self.vector = vector
    }

    /// The WHATWG IPv6 parser, one state machine, kept as the standard writes it.
    private static func parse(_ input: UnsafeBufferPointer<UInt8>) -> SIMD8<UInt16>? {
        var address = SIMD8<UInt16>(repeating: 0)
        var pieceIndex = 0
        var compress: Int?
        var pointer = 0
        func at(_ index: Int) -> UInt8? { index < input.count ? input[index] : nil }
        let colon = UInt8(ascii: ":")
        if at(0) == colon {
            guard at(1) == colon else { return nil }
            pointer = 2
            pieceIndex = 1
            compress = 1
        }
        while let byte = at(pointer) {
            guard pieceIndex < 8 else { return nil }
            if byte == colon {
                guard compress == nil else { return nil }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value: UInt16 = 0
            var length = 0
            while length < 4, let next = at(pointer), let digit = PercentEncoding.hexValue(next) {
                value = value << 4 | UInt16(digit)
                pointer += 1
                length += 1
            }
            if at(pointer) == UInt8(ascii: ".") {
                guard length > 0, pieceIndex <= 6 else { return nil }
                pointer -= length
                guard parseIPv4Tail(input, from: pointer, into: &address, at: &pieceIndex) else { return nil }
                pointer = input.count
                break
            } else if at(pointer) == colon {
                pointer += 1
                guard at(pointer) != nil else { return nil }
            } else if at(pointer) != nil {
                return nil
            }
            address[pieceIndex] = value
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0 && swaps > 0 {
                (address[pieceIndex], address[compress + swaps - 1]) = (
                    address[compress + swaps - 1], address[pieceIndex]
                )
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }

    /// Reads a dotted IPv4 tail (`::ffff:1.2.3.4`) into two pieces.
    private static func parseIPv4Tail(
        _ input: UnsafeBufferPointer<UInt8>,
        from start: Int,
        into address: inout SIMD8<UInt16>,
        at pieceIndex: inout Int
    ) -> Bool {
        var pointer = start
        var numbersSeen = 0
        while pointer < input.count {
            if numbersSeen > 0 {
                guard input[pointer] == UInt8(ascii: "."), numbersSeen < 4 else { return false }
                pointer += 1
            }
            guard pointer < input.count, isDigit(input[pointer]) else { return false }
            var piece: Int?
            while pointer < input.count, isDigit(input[pointer]) {
                let number = Int(input[pointer] - UInt8(ascii: "0"))
                if let current = piece {
                    guard current != 0 else { return false }
                    piece = current * 10 + number
                } else {
                    piece = number
                }
                guard let current = piece, current <= 255 else { return false }
                pointer += 1
            }
            address[pieceIndex] = address[pieceIndex] << 8 | UInt16(piece ?? 0)
            numbersSeen += 1
            if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
        }
        return numbersSeen == 4
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The compressed form the standard serialises (`::1`, `2001:db8::ff00:42:8329`), without brackets.
    public var description: String {
        var output: [UInt8] = []
        serialise(into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Writes the compressed form (``description``) byte by byte, with no string in between.
    func serialise(into output: inout some ByteOutput) {
        var compress = -1
        var longest = 1
        var index = 0
        while index < 8 {
            var end = index
            while end < 8 && vector[end] == 0 { end += 1 }
            if end - index > longest {
                longest = end - index
                compress = index
            }
            index = end == index ? index + 1 : end
        }
        var ignoreZero = false
        for position in 0..<8 {
            let piece = vector[position]
            if ignoreZero && piece == 0 { continue }
            ignoreZero = false
            if compress == position {
                output.append(UInt8(ascii: ":"))
                if position == 0 { output.append(UInt8(ascii: ":")) }
                ignoreZero = true
                continue
            }
            var shift = 12
            while shift > 0 && piece >> UInt16(shift) == 0 { shift -= 4 }
            while shift >= 0 {
                let digit = UInt8(piece >> UInt16(shift) & 0xF)
                output.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit)
                shift -= 4
            }
            if position != 7 { output.append(UInt8(ascii: ":")) }
        }
    }
}
