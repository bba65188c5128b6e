/// Finds bytes in a link's serialisation sixteen at a time.
enum ByteSearch {
    private typealias Lanes = SIMD16<Int8>

    /// The first index in `range` of `bytes` holding `first` or `second`, or `range.upperBound` when none does.
    static func firstIndex(
        of first: UInt8,
        or second: UInt8,
        in bytes: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>
    ) -> Int {
        var index = range.lowerBound
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            let firstLanes = Lanes(repeating: Int8(bitPattern: first))
            let secondLanes = Lanes(repeating: Int8(bitPattern: second))
            while index + 16 <= range.upperBound {
                let lanes = base.loadUnaligned(fromByteOffset: index, as: Lanes.self)
                let hit = (lanes .== firstLanes) .| (lanes .== secondLanes)
                // `any(_:)` is not inlined; the mask's two halves as integers are.
                let words = unsafeBitCast(hit, to: SIMD2<UInt64>.self)
                if words[0] | words[1] != 0 { break }
                index += 16
            }
        }
        while index < range.upperBound && bytes[index] != first && bytes[index] != second { index += 1 }
        return index
    }
}
