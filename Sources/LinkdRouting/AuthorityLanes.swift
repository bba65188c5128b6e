/// The plain road's reading of a link's scheme and host sixteen bytes at a time (``PlainLink`` reads the rest, and
/// links shorter than sixteen bytes, byte by byte).
enum AuthorityLanes {
    private typealias Lanes = SIMD16<UInt8>

    /// Where the scheme of `input` (sixteen bytes or more) ends, at a `:` among its first sixteen bytes, and
    /// whether it has capitals; `nil` when no `:` stands there (``PlainLink`` reads on byte by byte), or a byte
    /// before it is none of a scheme's (`.some(nil)`). The first byte is left to the caller.
    @inline(__always)
    static func schemeEnd(_ input: UnsafeBufferPointer<UInt8>) -> (end: Int, hasCapitals: Bool)?? {
        guard input.count >= 16, let base = UnsafeRawPointer(input.baseAddress) else { return nil }
        let lanes = base.loadUnaligned(as: Lanes.self)
        let colons = bits(lanes .== Lanes(repeating: UInt8(ascii: ":")))
        guard colons != 0 else { return nil }
        let end = colons.trailingZeroBitCount
        let before: UInt32 = (1 << UInt32(end)) - 1
        let upper = lanes &- Lanes(repeating: UInt8(ascii: "A")) .< Lanes(repeating: 26)
        let lower = lanes &- Lanes(repeating: UInt8(ascii: "a")) .< Lanes(repeating: 26)
        let digit = lanes &- Lanes(repeating: UInt8(ascii: "0")) .< Lanes(repeating: 10)
        // `+`, `-` and `.`: 0x2B, 0x2D and 0x2E.
        let sign = (lanes .== Lanes(repeating: 0x2B)) .| (lanes &- Lanes(repeating: 0x2D) .< Lanes(repeating: 2))
        guard bits(upper .| lower .| digit .| sign) & before == before else { return .some(nil) }
        return (end, bits(upper) & before != 0)
    }

    /// Moves `state` past the letters, digits and dots from `state.index` on, sixteen bytes at a time while sixteen
    /// remain; `false` for an empty label. The byte at the new `state.index`, if sixteen remained, is none of
    /// those.
    @inline(__always)
    static func skipHostLabels(_ input: UnsafeBufferPointer<UInt8>, _ state: inout HostState) -> Bool {
        guard let base = UnsafeRawPointer(input.baseAddress) else { return true }
        while state.index + 16 <= input.count {
            let lanes = base.loadUnaligned(fromByteOffset: state.index, as: Lanes.self)
            let upper = lanes &- Lanes(repeating: UInt8(ascii: "A")) .< Lanes(repeating: 26)
            let lower = lanes &- Lanes(repeating: UInt8(ascii: "a")) .< Lanes(repeating: 26)
            let digit = lanes &- Lanes(repeating: UInt8(ascii: "0")) .< Lanes(repeating: 10)
            let dot = lanes .== Lanes(repeating: UInt8(ascii: "."))
            let stops = bits(.!(upper .| lower .| digit .| dot))
            // The bytes before the first stop, as bits.
            let before: UInt32 = stops == 0 ? 0xFFFF : (1 << UInt32(stops.trailingZeroBitCount)) - 1
            let dots = bits(dot) & before
            if dots != 0 {
                // Two dots side by side, or one where a label starts, leave a label empty.
                guard dots & (dots << 1) == 0, state.index + dots.trailingZeroBitCount != state.labelStart else {
                    return false
                }
                state.labelStart = state.index + (31 - dots.leadingZeroBitCount) + 1
            }
            if bits(upper) & before != 0 { state.hasCapitals = true }
            guard stops == 0 else {
                state.index += stops.trailingZeroBitCount
                return true
            }
            state.index += 16
        }
        return true
    }

    /// Where the reading of a host stands.
    struct HostState {
        var index: Int
        var labelStart: Int
        var hasCapitals = false
    }

    /// The lanes of `mask` that are set, as sixteen bits (lane 0 → bit 0).
    @inline(__always)
    private static func bits(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt32 { LaneBits.of(mask) }
}
