/// The WHATWG percent-encode sets a link's parts are written with.
///
/// Every set includes the C0 controls and every byte above `0x7E`; each adds its own ASCII characters.
struct PercentEncodeSet: Sendable {
    private let low: UInt64
    private let high: UInt64
    /// The ASCII characters the set adds, first in the lanes, the rest filled with the first (or DEL).
    private let added: SIMD16<UInt8>
    private static let maximumAdded = 10

    private init(adding characters: String) {
        var low: UInt64 = 0xFFFF_FFFF  // C0 controls
        var high: UInt64 = 1 << 63  // DEL
        var added = SIMD16<UInt8>(repeating: characters.utf8.first ?? 0x7F)
        for (index, byte) in characters.utf8.enumerated() {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            added[index] = byte
        }
        self.low = low
        self.high = high
        precondition(characters.utf8.count <= Self.maximumAdded, "a percent-encode set adds ten characters at most")
        self.added = added
    }

    /// One bit for each of sixteen bytes that is in the set (byte 0 → bit 0): controls, DEL and non-ASCII in two
    /// comparisons, then one per character the set adds.
    @inline(__always)
    func members(of block: SIMD16<UInt8>) -> UInt32 {
        // Below 0x20 or from 0x7F: adding 0x60 moves 0x20...0x7E to -128...-34, so one signed comparison finds the
        // rest (an unsigned one has no vector instruction, and the compiler may write it as a loop over the lanes).
        // Each test's lanes are or-ed as integers: or-ing the masks, the compiler wrote the first test lane by lane.
        func lanes(_ mask: SIMDMask<SIMD16<Int8>>) -> SIMD16<Int8> { unsafeBitCast(mask, to: SIMD16<Int8>.self) }
        let shifted = unsafeBitCast(block &+ SIMD16(repeating: 0x60), to: SIMD16<Int8>.self)
        var hits = lanes(shifted .> SIMD16(repeating: -34))
        // A constant count of comparisons, which the compiler unrolls; the sets add ten characters at most, and
        // the lanes past a set's own repeat its first.
        for index in 0..<Self.maximumAdded { hits |= lanes(block .== SIMD16(repeating: added[index])) }
        return LaneBits.of(hits)
    }

    /// The C0 control percent-encode set, used for opaque hosts and opaque paths.
    static let c0Control = PercentEncodeSet(adding: "")
    /// The fragment percent-encode set.
    static let fragment = PercentEncodeSet(adding: " \"<>`")
    /// The query percent-encode set, used for links of non-special schemes.
    static let query = PercentEncodeSet(adding: " \"#<>")
    /// The special-query percent-encode set, used for links of special schemes.
    static let specialQuery = PercentEncodeSet(adding: " \"#<>'")
    /// The path percent-encode set.
    static let path = PercentEncodeSet(adding: " \"#<>?^`{}")

    /// Whether `byte` is written percent-encoded.
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        if byte >= 128 { return true }
        return byte < 64 ? low & (1 << UInt64(byte)) != 0 : high & (1 << UInt64(byte - 64)) != 0
    }
}

/// Percent-encoding and decoding of URL text.
public enum PercentEncoding {
    static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Appends `bytes` to `output`, percent-encoding those in `set`.
    static func append(
        _ bytes: some Collection<UInt8>,
        to output: inout some ByteOutput,
        encoding set: PercentEncodeSet
    ) {
        for byte in bytes {
            if set.contains(byte) {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            } else {
                output.append(byte)
            }
        }
    }

    /// Appends `bytes` to a link's serialisation, percent-encoding those in `set`: sixteen bytes at a time are
    /// tested, only the bytes the test picked out are looked at, and the runs between them are copied whole.
    static func append(
        _ bytes: UnsafeBufferPointer<UInt8>.SubSequence,
        to output: inout OutputBuffer,
        encoding set: PercentEncodeSet
    ) {
        let buffer = UnsafeBufferPointer(rebasing: bytes)
        guard let base = UnsafeRawPointer(buffer.baseAddress) else { return }
        var runStart = 0
        @inline(__always)
        func encode(at index: Int) {
            if runStart < index { output.append(buffer[runStart..<index]) }
            output.appendEscape(buffer[index])
            runStart = index + 1
        }
        var index = 0
        while index + 16 <= buffer.count {
            var members = set.members(of: base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self))
            while members != 0 {
                encode(at: index + members.trailingZeroBitCount)
                members &= members - 1
            }
            index += 16
        }
        while index < buffer.count {
            if set.contains(buffer[index]) { encode(at: index) }
            index += 1
        }
        if runStart < buffer.count { output.append(buffer[runStart...]) }
    }

    /// Whether `bytes` percent-decode to valid UTF-8 (as the standard library's parser reads it), without
    /// building the decoded bytes.
    static func decodesToUTF8(_ bytes: some Collection<UInt8>) -> Bool {
        var decoded = Decoder(bytes, plusAsSpace: false)
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &decoded) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// The value of an ASCII hex digit, or `nil`.
    @inline(__always)
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Percent-decodes `bytes` once; with `plusAsSpace`, `+` reads as a space first.
    ///
    /// A `%` not followed by two hex digits is kept as it is (the strict parse refuses those before this runs).
    package static func decode(_ bytes: some Collection<UInt8>, plusAsSpace: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var decoded = Decoder(bytes, plusAsSpace: plusAsSpace)
        while let byte = decoded.next() { output.append(byte) }
        return output
    }

    /// The percent-decoded bytes of a text, one at a time.
    struct Decoder<Bytes: Collection<UInt8>>: IteratorProtocol {
        private let bytes: Bytes
        private let plusAsSpace: Bool
        private var index: Bytes.Index

        init(_ bytes: Bytes, plusAsSpace: Bool) {
            self.bytes = bytes
            self.plusAsSpace = plusAsSpace
            index = bytes.startIndex
        }

        mutating func next() -> UInt8? {
            guard index != bytes.endIndex else { return nil }
            let byte = bytes[index]
            index = bytes.index(after: index)
            if byte == UInt8(ascii: "+") && plusAsSpace { return UInt8(ascii: " ") }
            guard byte == UInt8(ascii: "%"), index != bytes.endIndex, let high = hexValue(bytes[index]) else {
                return byte
            }
            let next = bytes.index(after: index)
            guard next != bytes.endIndex, let low = hexValue(bytes[next]) else { return byte }
            index = bytes.index(after: next)
            return high << 4 | low
        }
    }
}

extension PercentEncoding {
    /// `text` with every byte but the unreserved ones (`A–Z a–z 0–9 - . _ ~`) percent-encoded: safe in a path
    /// segment and in a form-encoded name or value.
    public static func encodeComponent(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.append(byte)
            default:
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
