/// The one pass over a link's bytes that every parse makes: it refuses what the strict reading refuses character by
/// character, and records what the serialiser needs (where `?` and `#` stand, whether anything must be
/// percent-encoded). Parameters make a pass of their own over query and fragment (``ByteMarks``): flagging `&`
/// and `=` here as well was measured slower.
struct InputScan {
    /// Whether some byte is written percent-encoded by WHATWG (non-ASCII, `"`, `'`, `<`, `>`, `^`, `` ` ``, `{`, `}`).
    private(set) var needsEncoding = false
    /// The first `?` before any `#`.
    var firstQuestion: Int? { question >= 0 ? question : nil }
    /// The first and the last `#`.
    var firstHash: Int? { hash >= 0 ? hash : nil }
    var lastHash: Int? { finalHash >= 0 ? finalHash : nil }
    /// Where the last byte to percent-encode stands (-1: none); the bytes after it are copied as they are.
    private(set) var lastToEncode = -1
    /// Where the first byte to percent-encode stands (-1: none).
    private(set) var firstToEncode = -1
    /// Whether the input holds a `%` (then each is followed by two hex digits, or the scan refused it).
    private(set) var hasPercent = false

    // Plain words, -1 for none: the parser reads them as soon as the scan returns, and a load of an optional's
    // tag as part of a wider word waits for the byte-sized store that wrote it.
    private var question = -1
    private var hash = -1
    private var finalHash = -1

    private enum Class {
        static let boring: UInt8 = 0
        static let refused: UInt8 = 1  // C0, space, DEL, backslash
        static let percent: UInt8 = 2
        static let encoded: UInt8 = 3  // non-ASCII and the bytes WHATWG writes percent-encoded
        static let question: UInt8 = 4
        static let hash: UInt8 = 5
    }

    /// The class of a byte value (a switch, not a table: a parse looks at few bytes one by one).
    @inline(__always)
    private static func classify(_ value: UInt8) -> UInt8 {
        switch value {
        case 0...0x20, 0x7F, 0x5C: Class.refused
        case 0x80...: Class.encoded
        case 0x25: Class.percent
        case 0x22, 0x27, 0x3C, 0x3E, 0x5E, 0x60, 0x7B, 0x7D: Class.encoded
        case 0x3F: Class.question
        case 0x23: Class.hash
        default: Class.boring
        }
    }

    private typealias Lanes = SIMD16<Int8>

    /// The bytes among sixteen that are not ``Class/boring`` (and `!`, `|` and `~`, which cost a closer look
    /// only), as sixteen bits. The comparisons compile to a handful of vector instructions.
    @inline(__always)
    private static func hits(_ lanes: Lanes) -> UInt32 { LaneBits.of(hitLanes(lanes)) }

    /// The same as lanes, -1 for a byte to look at. The comparisons pick disjoint sets of bytes, so adding their
    /// lanes (0 or -1) gives their union; or-ing the masks instead makes the compiler turn the union back into
    /// lanes with three more instructions a block.
    @inline(__always)
    private static func hitLanes(_ lanes: Lanes) -> Lanes {
        func lanesOf(_ mask: SIMDMask<Lanes.MaskStorage>) -> Lanes { unsafeBitCast(mask, to: Lanes.self) }
        // Outside 0x21...0x7A: controls, space, `{ | } ~`, DEL and every non-ASCII byte. Adding 0x5F moves that
        // range to -128...-39, so one signed comparison finds everything outside it.
        let outside = lanesOf((lanes &+ Lanes(repeating: 0x5F)) .> Lanes(repeating: -39))
        let punctuation = lanesOf((lanes & Lanes(repeating: ~6)) .== Lanes(repeating: 0x21))  // ! # % '
        let quote = lanesOf(lanes .== Lanes(repeating: 0x22))
        let angle = lanesOf((lanes | Lanes(repeating: 2)) .== Lanes(repeating: 0x3E))  // < >
        let question = lanesOf(lanes .== Lanes(repeating: 0x3F))
        let backslashCaret = lanesOf((lanes & Lanes(repeating: ~2)) .== Lanes(repeating: 0x5C))  // \ ^
        let backtick = lanesOf(lanes .== Lanes(repeating: 0x60))
        return outside &+ punctuation &+ quote &+ angle &+ question &+ backslashCaret &+ backtick
    }

    /// Scans `input` (not empty, within the length limit).
    ///
    /// - Throws: the refusals of ``InputCheck`` — `invalid_utf8`, `surrounding_whitespace`, `invalid_character`,
    ///   `bad_percent_encoding` — in that order of precedence.
    init(_ input: UnsafeBufferPointer<UInt8>) throws(RouteError) {
        scan(input)  // in place: a copy of the finished scan would read its flags' fresh stores as wider words
        // Every non-ASCII byte is one to encode: none stands outside the first and the last of those.
        let encoded = UnsafeBufferPointer(rebasing: input[Swift.max(firstToEncode, 0)..<(lastToEncode + 1)])
        if hasOffence || needsEncoding && encoded.contains(where: { $0 >= 0x80 }) && !InputCheck.isClean(encoded) {
            // The slow path reads scalars, so that Unicode white space and C1 controls are refused too, and names
            // the first offence in the order of precedence.
            try InputCheck.check(Array(input))
        }
    }

    private var hasOffence = false

    private mutating func scan(_ input: UnsafeBufferPointer<UInt8>) {
        guard let base = UnsafeRawPointer(input.baseAddress) else { return }
        var index = 0
        let count = input.count
        // Most bytes of a link are token characters: test them sixteen at a time, and look only at the bytes a
        // block's test picked out. Two blocks share one test of whether either picked out anything.
        while index + 32 <= count {
            let first = Self.hits(base.loadUnaligned(fromByteOffset: index, as: Lanes.self))
            let second = Self.hits(base.loadUnaligned(fromByteOffset: index + 16, as: Lanes.self))
            let both = first | second << 16
            if both != 0 { noteHits(both, block: index, in: input) }
            index += 32
        }
        while index + 16 <= count {
            noteHits(Self.hits(base.loadUnaligned(fromByteOffset: index, as: Lanes.self)), block: index, in: input)
            index += 16
        }
        guard index < count else { return }
        if count >= 16 {
            // The last sixteen bytes, read again from where the blocks left off.
            let block = count - 16
            noteHits(Self.hits(base.loadUnaligned(fromByteOffset: block, as: Lanes.self)), block: block, in: input) {
                $0 >= index
            }
            return
        }
        while index < count {
            note(Self.classify(input[index]), at: index, in: input)
            index += 1
        }
    }

    /// Notes the bytes the test of the block at `block` picked out (bit 0: the byte at `block`), those at offsets
    /// `isNew` accepts.
    @inline(__always)
    private mutating func noteHits(
        _ hits: UInt32,
        block: Int,
        in input: UnsafeBufferPointer<UInt8>,
        isNew: (Int) -> Bool = { _ in true }
    ) {
        var bits = hits
        while bits != 0 {
            let offset = block + bits.trailingZeroBitCount
            if isNew(offset) { note(Self.classify(input[offset]), at: offset, in: input) }
            bits &= bits - 1
        }
    }

    private mutating func note(_ byteClass: UInt8, at index: Int, in input: UnsafeBufferPointer<UInt8>) {
        switch byteClass {
        case Class.boring:
            break
        case Class.refused:
            hasOffence = true
        case Class.percent:
            hasPercent = true
            if index + 2 >= input.count || PercentEncoding.hexValue(input[index + 1]) == nil
                || PercentEncoding.hexValue(input[index + 2]) == nil
            {
                hasOffence = true
            }
        case Class.encoded:
            if !needsEncoding { firstToEncode = index }
            needsEncoding = true
            lastToEncode = index
        case Class.question:
            if question < 0 && hash < 0 { question = index }
        default:
            if hash < 0 { hash = index }
            finalHash = index
        }
    }
}
