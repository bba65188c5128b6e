/// A link's parameters as places in its `href`, split in one pass over its query and fragment when the link is
/// parsed, and kept in the link's storage; ``LinkParameters`` reads them from there.
///
/// Each parameter is one 64-bit ``Entry``, and the first eight sit inline in the table: splitting the parameters
/// of most links allocates nothing (those beyond eight go in a list).
/// Names and values are decoded when they are read. Here, a piece with an escape that decodes above ASCII is decoded
/// once to check that it is UTF-8 (unless every escape is the serialisation's own), and a duplicate name is compared
/// with the others decoding side by side.
struct ParameterTable: Sendable {
    /// One parameter: where its piece starts, where its first `=` stands (its end when it has none) and where it
    /// ends, as 16-bit offsets, and three flags. (Percent-encoding at most triples the 16,384 bytes of a link and a
    /// host grows by fewer than 48, so `href` stays below 65,536 bytes.)
    struct Entry: Sendable, Hashable {
        private let raw: UInt64

        private static let fragmentBit: UInt64 = 1 << 48
        private static let namePercentBit: UInt64 = 1 << 49
        private static let valuePercentBit: UInt64 = 1 << 50

        init(_ piece: Range<Int>, equals: Int, _ part: LinkPart, namePercent: Bool, valuePercent: Bool) {
            var raw = UInt64(UInt16(piece.lowerBound)) | UInt64(UInt16(equals)) << 16
            raw |= UInt64(UInt16(piece.upperBound)) << 32
            if part == .fragment { raw |= Self.fragmentBit }
            if namePercent { raw |= Self.namePercentBit }
            if valuePercent { raw |= Self.valuePercentBit }
            self.raw = raw
        }

        init(raw: UInt64) { self.raw = raw }

        var packed: UInt64 { raw }
        private var start: Int { Int(raw & 0xFFFF) }
        private var equals: Int { Int(raw >> 16 & 0xFFFF) }
        private var end: Int { Int(raw >> 32 & 0xFFFF) }

        var name: Text { Text(range: start..<equals, hasPercent: raw & Self.namePercentBit != 0) }
        var value: Text { Text(range: Swift.min(equals + 1, end)..<end, hasPercent: raw & Self.valuePercentBit != 0) }
        var part: LinkPart { raw & Self.fragmentBit != 0 ? .fragment : .query }
    }

    /// A name or value: a range of `href`, in which `+` reads as a space and, when it holds a `%`, percent-escapes
    /// are decoded.
    struct Text {
        let range: Range<Int>
        let hasPercent: Bool

        /// The decoded bytes.
        func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
            PercentEncoding.decode(bytes[range], plusAsSpace: true)
        }

        /// The decoded text (checked to be UTF-8 when the link was parsed).
        func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            if hasPercent { return String(decoding: decoded(bytes), as: UTF8.self) }
            return String(
                decoding: bytes[range].lazy.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 },
                as: UTF8.self
            )
        }

        /// Whether the text decodes to `text`.
        func equals(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            if hasPercent {
                var decoded = PercentEncoding.Decoder(bytes[range], plusAsSpace: true)
                for byte in text.utf8 where decoded.next() != byte { return false }
                return decoded.next() == nil
            }
            guard range.count == text.utf8.count else { return false }
            return text.utf8.elementsEqual(bytes[range].lazy.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 })
        }

        /// Whether two texts decode to the same bytes.
        func equals(_ other: Text, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard hasPercent || other.hasPercent else {
                // Without `%`, decoding only turns `+` into a space, and a raw link holds no space: equal bytes or not.
                guard range.count == other.range.count else { return false }
                // Eight bytes at a time: a repeated parameter's value is often a token hundreds of bytes long.
                return ByteKeyTable.equal(
                    bytes,
                    from: range.lowerBound,
                    UnsafeBufferPointer(rebasing: bytes[other.range])
                )
            }
            // Decoded side by side, without building either.
            var left = PercentEncoding.Decoder(bytes[range], plusAsSpace: true)
            var right = PercentEncoding.Decoder(bytes[other.range], plusAsSpace: true)
            while true {
                let byte = left.next()
                guard byte == right.next() else { return false }
                if byte == nil { return true }
            }
        }
    }

    private static let inlineCapacity = 8

    /// Why the parameters are refused; the refusal is written out only when it is thrown.
    enum Failure: Sendable {
        case tooMany
        case invalidUTF8(LinkPart)
        /// A second value for the name of the entry.
        case conflicting(Entry)

        /// The refusal, naming the parameter read from `bytes` (`href`'s) for a conflict.
        func refusal(_ bytes: UnsafeBufferPointer<UInt8>) -> LinkRefusal {
            switch self {
            case .tooMany:
                LinkRefusal(
                    .tooManyParameters,
                    part: .parameters,
                    "the link has more than \(LinkParameters.maximumCount) parameters"
                )
            case .invalidUTF8(let part):
                LinkRefusal(.invalidUTF8, part: part, "a parameter in the \(part.rawValue) does not decode to UTF-8")
            case .conflicting(let entry):
                LinkRefusal(
                    .conflictingParameter,
                    part: entry.part,
                    "conflicting parameter '\(entry.name.string(bytes))'"
                )
            }
        }
    }

    /// The first ``inlineCapacity`` entries (an inline array, not a vector, whose alignment would make the
    /// link's storage an aligned allocation).
    private var inline = InlineArray<8, UInt64>(repeating: 0)
    /// The entries beyond the first ``inlineCapacity``, in order: empty for most links.
    private var overflow: [UInt64] = []
    /// The first refusal, thrown by ``LinkURL/parameters()``.
    private(set) var failure: Failure?
    /// The bits of ``nameBit(_:_:)`` of every name stored: a name whose bit is clear is compared with none.
    private var nameBits: UInt64 = 0
    /// The number of distinct parameters, in a byte (there are at most 64).
    private var storedCount: UInt8 = 0
    /// Every `&`-separated piece, empty ones included, for the limit of ``LinkParameters/maximumCount``.
    private var pieceCount: UInt16 = 0
    /// Whether the escapes are known to decode to UTF-8 (``LinkURL/Layout/escapesAreOwn``): nothing to check.
    private var escapesAreUTF8 = false

    /// The number of distinct parameters.
    var count: Int { Int(storedCount) }

    subscript(index: Int) -> Entry {
        Entry(raw: index < Self.inlineCapacity ? inline[index] : overflow[index - Self.inlineCapacity])
    }

    /// The parameters of a link laid out as `layout` in `bytes`, its `href`. (Inlined, so that the table is split
    /// where its caller keeps it, not in a temporary copied out the moment the last entry is stored.)
    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>, _ layout: LinkURL.Layout) {
        split(bytes, layout)
    }

    /// Splits the parameters of a link laid out as `layout` in `bytes`, its `href`, into this empty table.
    private mutating func split(_ bytes: UnsafeBufferPointer<UInt8>, _ layout: LinkURL.Layout) {
        escapesAreUTF8 = layout.escapesAreOwn
        if let query = layout.queryRange { read(bytes, query, .query) }
        if let fragment = layout.fragmentRange {
            read(bytes, layout.fragmentParametersStart..<fragment.upperBound, .fragment)
        }
        if pieceCount > LinkParameters.maximumCount { failure = .tooMany }
    }

    /// Splits one part in one pass, sixteen bytes at a time: every piece is counted, and the first refusal is
    /// kept so that `too_many_parameters` still wins over it.
    private mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ part: LinkPart) {
        guard !range.isEmpty, let base = UnsafeRawPointer(bytes.baseAddress) else { return }
        let end = range.upperBound
        var start = range.lowerBound
        var equals: Int?
        var escapes = Escapes()
        var block = range.lowerBound
        while block < end {
            // Thirty-two bytes at a time, each block's marks computed once: token characters are skipped in a
            // loop that keeps everything in registers, and a block with marks gives their places as one mask.
            var mask: UInt32 = 0
            while block + 32 <= end {
                mask = ByteMarks.pairMask(base, at: block)
                if mask != 0 { break }
                block += 32
            }
            let width = block + 32 <= end ? 32 : 16
            if width == 16 {
                guard block < end else { break }
                mask =
                    bytes.count >= 16
                    ? ByteMarks.mask(bytes, at: block, end: end) : ByteMarks.shortMask(bytes, at: block, end: end)
            }
            while mask != 0 {
                let offset = block + mask.trailingZeroBitCount
                mask &= mask - 1
                switch bytes[offset] {
                case UInt8(ascii: "="):
                    if equals == nil { equals = offset }
                case UInt8(ascii: "%"):
                    if equals == nil { escapes.inName = true } else { escapes.inValue = true }
                    // A first hex digit from `8` up is a byte from 0x80 up; anything else that may follow a `%`
                    // (`0`–`7`, or a character that is no hex digit, which then stays as it is) is ASCII.
                    if offset + 1 < end && bytes[offset + 1] >= UInt8(ascii: "8") { escapes.aboveASCII = true }
                default:
                    take(bytes, start..<offset, equals: equals, part, escapes: escapes)
                    start = offset + 1
                    equals = nil
                    escapes = Escapes()
                }
            }
            block += width
        }
        take(bytes, start..<end, equals: equals, part, escapes: escapes)
    }

    /// Counts a piece, and adds it while nothing was refused and the count is within the limit.
    private mutating func take(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ piece: Range<Int>,
        equals: Int?,
        _ part: LinkPart,
        escapes: Escapes
    ) {
        pieceCount &+= 1
        guard failure == nil && pieceCount <= LinkParameters.maximumCount && !piece.isEmpty else { return }
        let equals = equals ?? piece.upperBound
        // An empty name (`=x`) is no parameter; a name with a `%` decodes to at least one byte.
        guard equals > piece.lowerBound else { return }
        let entry = Entry(piece, equals: equals, part, namePercent: escapes.inName, valuePercent: escapes.inValue)
        if escapes.aboveASCII && !escapesAreUTF8
            && !(Self.isUTF8(entry.name, bytes) && Self.isUTF8(entry.value, bytes))
        {
            failure = .invalidUTF8(part)
            return
        }
        let bit = Self.nameBit(entry.name, bytes)
        var existing = nameBits & bit == 0 ? count : 0  // a clear bit: no entry has this name
        while existing < count && !self[existing].name.equals(entry.name, bytes) { existing += 1 }
        guard existing < count else {
            nameBits |= bit
            append(entry)
            return
        }
        if !self[existing].value.equals(entry.value, bytes) { failure = .conflicting(entry) }
    }

    /// The bit of ``nameBits`` for `name` (not empty): one of 64 chosen by its length and its first and last
    /// bytes, or every bit for a name with a `%`, whose raw bytes do not tell its decoded ones.
    private static func nameBit(_ name: Text, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard !name.hasPercent else { return ~0 }
        let range = name.range
        let key = range.count &* 7 &+ Int(bytes[range.lowerBound]) &* 3 &+ Int(bytes[range.upperBound - 1])
        return 1 &<< UInt64(key & 63)
    }

    /// Where a piece's percent-escapes are, and whether one of them decodes to a byte above ASCII: noted as the
    /// piece is split. `href` is ASCII (its serialisation percent-encodes every byte above 0x7E), so a piece whose
    /// escapes all decode to ASCII (`%40`, `%2F`: the usual ones) is UTF-8 without being decoded.
    private struct Escapes {
        var inName = false
        var inValue = false
        var aboveASCII = false
    }

    private static func isUTF8(_ text: Text, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !text.hasPercent || PercentEncoding.decodesToUTF8(bytes[text.range])
    }

    private mutating func append(_ entry: Entry) {
        if count < Self.inlineCapacity {
            inline[count] = entry.packed
        } else {
            overflow.append(entry.packed)
        }
        storedCount += 1
    }
}
