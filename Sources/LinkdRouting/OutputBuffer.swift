/// Something bytes are appended to: an array, or the storage of a string being built.
protocol ByteOutput {
    mutating func append(_ byte: UInt8)
}

extension Array: ByteOutput where Element == UInt8 {}

/// A fixed-capacity writer over uninitialised memory, used to write a link's serialisation straight into the
/// storage of its `href` string.
///
/// The capacity is fixed up front from the input's length; writing past it is a bug and traps.
struct OutputBuffer: ByteOutput {
    private let base: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ base: UnsafeMutableBufferPointer<UInt8>) {
        self.base = base
    }

    /// The bytes written so far.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: base[0..<count]) }

    mutating func append(_ byte: UInt8) {
        precondition(count < base.count, "link serialisation exceeds its computed capacity")
        base[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence) {
        precondition(count + bytes.count <= base.count, "link serialisation exceeds its computed capacity")
        guard let source = UnsafeBufferPointer(rebasing: bytes).baseAddress, let target = base.baseAddress else {
            return
        }
        (target + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ text: String) {
        for byte in text.utf8 { append(byte) }
    }
}
