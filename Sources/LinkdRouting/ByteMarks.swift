/// The offsets of three chosen byte values in a range of a link's serialisation, in order, found sixteen bytes
/// at a time: one pass that splits parameters at `&`, names from values at `=` and notes `%`.
struct ByteMarks {
    private typealias Lanes = SIMD16<Int8>

    private let bytes: UnsafeBufferPointer<UInt8>
    private let end: Int
    private let targets: (Lanes, Lanes, Lanes)
    /// Where the current block of sixteen starts.
    private var blockStart: Int
    /// The marked offsets of the current block not yet returned, one bit each.
    private var mask: UInt32 = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ first: UInt8, _ second: UInt8, _ third: UInt8) {
        self.bytes = bytes
        end = range.upperBound
        targets = (
            Lanes(repeating: Int8(bitPattern: first)), Lanes(repeating: Int8(bitPattern: second)),
            Lanes(repeating: Int8(bitPattern: third))
        )
        blockStart = range.lowerBound
        mask = blockMask(at: blockStart)
    }

    /// The next marked offset, or `nil` at the end of the range.
    mutating func next() -> Int? {
        if mask == 0 {
            // Skip unmarked blocks in a loop that keeps everything in registers.
            var start = blockStart + 16
            if let base = UnsafeRawPointer(bytes.baseAddress) {
                let (first, second, third) = targets
                while start + 16 <= end {
                    let lanes = base.loadUnaligned(fromByteOffset: start, as: Lanes.self)
                    let hit = (lanes .== first) .| (lanes .== second) .| (lanes .== third)
                    let words = unsafeBitCast(hit, to: SIMD2<UInt64>.self)
                    if words[0] | words[1] != 0 { break }
                    start += 16
                }
            }
            blockStart = start
            guard start < end else { return nil }
            mask = blockMask(at: start)
            if mask == 0 { return nil }  // only the last, partial block can be unmarked here
        }
        let offset = blockStart + mask.trailingZeroBitCount
        mask &= mask - 1
        return offset
    }

    /// One bit for each of the (up to) sixteen bytes from `start` that is a target.
    private func blockMask(at start: Int) -> UInt32 {
        guard start + 16 <= end, let base = UnsafeRawPointer(bytes.baseAddress) else {
            var mask: UInt32 = 0
            for offset in start..<Swift.min(start + 16, end) where isTarget(bytes[offset]) {
                mask |= 1 << UInt32(offset - start)
            }
            return mask
        }
        let lanes = base.loadUnaligned(fromByteOffset: start, as: Lanes.self)
        let hit = (lanes .== targets.0) .| (lanes .== targets.1) .| (lanes .== targets.2)
        let words = unsafeBitCast(hit, to: SIMD2<UInt64>.self)
        guard words[0] | words[1] != 0 else { return 0 }
        return UInt32(Self.compress(words[0])) | UInt32(Self.compress(words[1])) << 8
    }

    private func isTarget(_ byte: UInt8) -> Bool {
        let lane = Int8(bitPattern: byte)
        return lane == targets.0[0] || lane == targets.1[0] || lane == targets.2[0]
    }

    /// The top bit of each of a word's eight bytes, as eight bits (byte 0 → bit 0).
    private static func compress(_ word: UInt64) -> UInt64 {
        ((word & 0x8080_8080_8080_8080) &* 0x0002_0408_1020_4081) >> 56
    }
}
