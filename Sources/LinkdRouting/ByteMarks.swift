/// Where `&`, `=` and `%` stand among sixteen bytes of a link's serialisation, as one bit each: what splits
/// parameters at `&`, names from values at `=`, and tells which hold an escape.
enum ByteMarks {
    private typealias Lanes = SIMD16<Int8>

    /// One bit for each byte from `start` up to `start + 16` (and before `end`) that is `&`, `=` or `%`; bit 0 is
    /// `start`. `bytes` must hold at least sixteen bytes.
    @inline(__always)
    static func mask(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> UInt32 {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return 0 }
        if start + 16 <= end { return mask(base, at: start) }
        // Sixteen bytes of the buffer that hold `start..<end`: those that end at `end`, or the first sixteen when
        // `end` comes earlier. Bits before `start` and from `end` are dropped.
        let load = Swift.max(0, end - 16)
        return mask(base, at: load) >> UInt32(start - load) & ((1 << UInt32(end - start)) - 1)
    }

    /// One bit for each of the bytes before `end` from `start` (fewer than sixteen) that is `&`, `=` or `%`: for a
    /// buffer shorter than sixteen bytes.
    static func shortMask(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> UInt32 {
        var mask: UInt32 = 0
        for offset in start..<end {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "&") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "%") {
                mask |= 1 << UInt32(offset - start)
            }
        }
        return mask
    }

    /// One bit for each of the thirty-two bytes at `start` that is marked (0 for none, found with one test).
    @inline(__always)
    static func pairMask(_ base: UnsafeRawPointer, at start: Int) -> UInt32 {
        let first = hits(base.loadUnaligned(fromByteOffset: start, as: Lanes.self))
        let second = hits(base.loadUnaligned(fromByteOffset: start + 16, as: Lanes.self))
        let either = first | second
        guard either[0] | either[1] != 0 else { return 0 }
        return UInt32(compress(first[0])) | UInt32(compress(first[1])) << 8 | UInt32(compress(second[0])) << 16
            | UInt32(compress(second[1])) << 24
    }

    @inline(__always)
    private static func mask(_ base: UnsafeRawPointer, at start: Int) -> UInt32 {
        let words = hits(base.loadUnaligned(fromByteOffset: start, as: Lanes.self))
        guard words[0] | words[1] != 0 else { return 0 }
        return UInt32(compress(words[0])) | UInt32(compress(words[1])) << 8
    }

    /// The marked lanes as 0xFF bytes in two words.
    @inline(__always)
    private static func hits(_ lanes: Lanes) -> SIMD2<UInt64> {
        let ampersand = lanes .== Lanes(repeating: Int8(bitPattern: UInt8(ascii: "&")))
        let equals = lanes .== Lanes(repeating: Int8(bitPattern: UInt8(ascii: "=")))
        let percent = lanes .== Lanes(repeating: Int8(bitPattern: UInt8(ascii: "%")))
        return unsafeBitCast(ampersand .| equals .| percent, to: SIMD2<UInt64>.self)
    }

    /// The top bit of each of a word's eight bytes, as eight bits (byte 0 → bit 0); ``AuthorityLanes`` uses it too.
    @inline(__always)
    static func compress(_ word: UInt64) -> UInt64 {
        ((word & 0x8080_8080_8080_8080) &* 0x0002_0408_1020_4081) >> 56
    }
}
