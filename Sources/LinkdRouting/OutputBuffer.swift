/// Something bytes are appended to: an array, or the storage of a string being built.
protocol ByteOutput {
    mutating func append(_ byte: UInt8)
}

extension Array: ByteOutput where Element == UInt8 {}

/// Where a link's serialisation goes: into the storage of its `href` string, or nowhere at all while the parser
/// checks whether the serialisation is the input itself.
///
/// Writing, the capacity is fixed up front from the input's length; writing past it is a bug and traps.
/// Verifying, each byte is compared with the input at the same offset instead of being written: a link that is
/// already in its serialised form (most are) keeps its input string as `href`, and nothing is copied.
struct OutputBuffer: ByteOutput {
    /// Where bytes are written; `nil` when verifying.
    private let base: UnsafeMutableBufferPointer<UInt8>?
    /// The input, which the bytes must equal when verifying.
    private let reference: UnsafeBufferPointer<UInt8>
    private(set) var count = 0
    /// Whether a verified byte differed from the input (or went past its end).
    private(set) var diverged = false

    /// A writer into `base`.
    init(_ base: UnsafeMutableBufferPointer<UInt8>) {
        self.base = base
        reference = UnsafeBufferPointer(start: nil, count: 0)
    }

    /// A checker of the serialisation against `input`.
    init(verifying input: UnsafeBufferPointer<UInt8>) {
        base = nil
        reference = input
    }

    /// Whether bytes are compared with the input rather than written.
    var isVerifying: Bool { base == nil }

    /// The bytes written so far (verifying, the input's bytes up to the same offset).
    var written: UnsafeBufferPointer<UInt8> {
        if let base { return UnsafeBufferPointer(rebasing: base[0..<count]) }
        return UnsafeBufferPointer(rebasing: reference[0..<Swift.min(count, reference.count)])
    }

    mutating func append(_ byte: UInt8) {
        if let base {
            precondition(count < base.count, "link serialisation exceeds its computed capacity")
            base[count] = byte
        } else if count >= reference.count || reference[count] != byte {
            diverged = true
        }
        count += 1
    }

    /// Appends `%` and the two upper-case hex digits of `byte`, in one step when writing.
    mutating func appendEscape(_ byte: UInt8) {
        let high = Self.hexDigit(byte >> 4)
        let low = Self.hexDigit(byte & 0x0F)
        guard let base, count + 3 <= base.count else {
            // Verifying (or past the capacity, which traps there): byte by byte.
            append(UInt8(ascii: "%"))
            append(high)
            append(low)
            return
        }
        base[count] = UInt8(ascii: "%")
        base[count + 1] = high
        base[count + 2] = low
        count += 3
    }

    /// The upper-case hex digit of `value` (0 to 15).
    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") - 10 + value
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence) {
        let source = UnsafeBufferPointer(rebasing: bytes)
        defer { count += source.count }
        guard let from = source.baseAddress else { return }
        guard let base else {
            // The parser mostly appends the input's own bytes at their own offset: nothing to compare then.
            if count + source.count > reference.count {
                diverged = true
            } else if reference.baseAddress.map({ $0 + count }) != from,
                !source.elementsEqual(reference[count..<(count + source.count)])
            {
                diverged = true
            }
            return
        }
        precondition(count + source.count <= base.count, "link serialisation exceeds its computed capacity")
        guard let target = base.baseAddress else { return }
        (target + count).update(from: from, count: source.count)
    }

    mutating func append(_ text: String) {
        for byte in text.utf8 { append(byte) }
    }

    /// Appends the decimal digits of `value`, without leading zeros: a port, with no string in between.
    mutating func append(decimal value: UInt16) {
        var divisor: UInt16 = 10_000
        while divisor > 1 && value < divisor { divisor /= 10 }
        while divisor > 0 {
            append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
