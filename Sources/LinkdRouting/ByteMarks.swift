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

    /// One bit for each of the thirty-two bytes at `start` that is marked (0 for none).
    @inline(__always)
    static func pairMask(_ base: UnsafeRawPointer, at start: Int) -> UInt32 {
        let first = marks(base.loadUnaligned(fromByteOffset: start, as: Lanes.self))
        let second = marks(base.loadUnaligned(fromByteOffset: start + 16, as: Lanes.self))
        return LaneBits.of(first) | LaneBits.of(second) << 16
    }

    @inline(__always)
    private static func mask(_ base: UnsafeRawPointer, at start: Int) -> UInt32 {
        LaneBits.of(marks(base.loadUnaligned(fromByteOffset: start, as: Lanes.self)))
    }

    /// The marked lanes.
    @inline(__always)
    private static func marks(_ lanes: Lanes) -> SIMDMask<SIMD16<Int8>> {
        let ampersand = lanes .== Lanes(repeating: Int8(bitPattern: UInt8(ascii: "&")))
        let equals = lanes .== Lanes(repeating: Int8(bitPattern: UInt8(ascii: "=")))
        let percent = lanes .== Lanes(repeating: Int8(bitPattern: UInt8(ascii: "%")))
        return ampersand .| equals .| percent
    }
}
