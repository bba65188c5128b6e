import LinkdRouting

extension LinkRedactor {
    /// Percent-decoded text, with where each of its bytes came from.
    struct Decoding {
        /// The decoded bytes (`+` reads as a space, as in a query).
        var bytes: [UInt8]
        /// For each decoded byte, the index of its first source byte; one more entry holds the source's end, so that
        /// the decoded range `a..<b` came from `origin[a]..<origin[b]`.
        var origin: [Int]
    }

    /// `source` percent-decoded; `nil` when it holds no escape (`%` and two hex digits).
    static func percentDecoded(_ source: ArraySlice<UInt8>) -> Decoding? {
        var decoding = Decoding(bytes: [], origin: [])
        decoding.bytes.reserveCapacity(source.count)
        decoding.origin.reserveCapacity(source.count + 1)
        var hasEscape = false
        var index = source.startIndex
        while index < source.endIndex {
            decoding.origin.append(index)
            let byte = source[index]
            if byte == UInt8(ascii: "%"), index + 2 < source.endIndex,
                let high = PercentEncoding.hexValue(source[index + 1]),
                let low = PercentEncoding.hexValue(source[index + 2])
            {
                decoding.bytes.append(high << 4 | low)
                hasEscape = true
                index += 3
            } else {
                decoding.bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        decoding.origin.append(source.endIndex)
        return hasEscape ? decoding : nil
    }

    /// Adds every occurrence of each of `values` in `bytes`, and every run of their fragments, as written or
    /// percent-encoded (down to ``maximumNesting`` levels).
    static func collect(_ values: Values, in bytes: [UInt8], into found: inout [Range<Int>]) {
        var level = bytes
        var origin: [Int]?  // where each byte of `level` starts in `bytes`; `nil` while they are the same
        for depth in 0...maximumNesting {
            let ranges = values.whole.flatMap { occurrences(of: $0, in: level) } + values.fragments.ranges(in: level)
            for range in ranges {
                found.append(origin.map { $0[range.lowerBound]..<$0[range.upperBound] } ?? range)
            }
            guard depth < maximumNesting, level.contains(UInt8(ascii: "%")), let decoded = percentDecoded(level[...])
            else { return }
            origin = origin.map { outer in decoded.origin.map { outer[$0] } } ?? decoded.origin
            level = decoded.bytes
        }
    }

    /// The ranges where `value` occurs in `bytes`, not overlapping (Knuth–Morris–Pratt: linear in both lengths, so a
    /// long value in a long text of near misses costs no more than a short one).
    private static func occurrences(of value: [UInt8], in bytes: [UInt8]) -> [Range<Int>] {
        guard !value.isEmpty, value.count <= bytes.count else { return [] }
        // fallback[i]: the length of the longest proper prefix of value[...i] that is also its suffix.
        var fallback = [Int](repeating: 0, count: value.count)
        var length = 0
        for index in 1..<max(1, value.count) {
            while length > 0 && value[index] != value[length] { length = fallback[length - 1] }
            if value[index] == value[length] { length += 1 }
            fallback[index] = length
        }
        var ranges: [Range<Int>] = []
        var matched = 0
        for (index, byte) in bytes.enumerated() {
            while matched > 0 && byte != value[matched] { matched = fallback[matched - 1] }
            if byte == value[matched] { matched += 1 }
            if matched == value.count {
                ranges.append((index + 1 - value.count)..<(index + 1))
                matched = 0
            }
        }
        return ranges
    }
}
