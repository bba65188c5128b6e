/// The one pass over a link's bytes that every parse makes: it refuses what DESIGN.md §3 refuses character by
/// character, and records what the later steps need (where `?`, `#` and `&` stand, whether anything must be
/// percent-encoded), so that no later step reads the whole link again.
struct InputScan {
    /// Whether some byte is written percent-encoded by WHATWG (non-ASCII, `"`, `'`, `<`, `>`, `^`, `` ` ``, `{`, `}`).
    var needsEncoding = false
    /// The first `?` before any `#`.
    var firstQuestion: Int?
    /// The first and the last `#`.
    var firstHash: Int?
    var lastHash: Int?
    /// Every `&`, in order (the parameter split points), up to a cap.
    var ampersands: [Int] = []
    /// Every `%`, in order, up to the same cap (past either cap, the parser finds them in its output instead).
    var percents: [Int] = []

    /// The most `&` and `%` positions kept.
    static let ampersandCap = 200

    private enum Class {
        static let boring: UInt8 = 0
        static let refused: UInt8 = 1  // C0, space, DEL, backslash
        static let percent: UInt8 = 2
        static let nonASCII: UInt8 = 3
        static let encoded: UInt8 = 4
        static let question: UInt8 = 5
        static let hash: UInt8 = 6
        static let ampersand: UInt8 = 7
    }

    /// The class of each byte value.
    private static let classes: [UInt8] = (0..<256).map { value -> UInt8 in
        switch value {
        case 0...0x20, 0x7F, 0x5C: Class.refused
        case 0x80...: Class.nonASCII
        case 0x25: Class.percent
        case 0x22, 0x27, 0x3C, 0x3E, 0x5E, 0x60, 0x7B, 0x7D: Class.encoded
        case 0x3F: Class.question
        case 0x23: Class.hash
        case 0x26: Class.ampersand
        default: Class.boring
        }
    }

    /// Scans `input` (not empty, within the length limit).
    ///
    /// - Throws: the refusals of ``InputCheck`` — `invalid_utf8`, `surrounding_whitespace`, `invalid_character`,
    ///   `bad_percent_encoding` — in that order of precedence.
    init(_ input: UnsafeBufferPointer<UInt8>) throws(RouteError) {
        self = Self.classes.withUnsafeBufferPointer { Self(input, classes: $0) }
        if hasOffence || needsEncoding && input.contains(where: { $0 >= 0x80 }) {
            // The slow path reads scalars, so that Unicode white space and C1 controls are refused too, and names
            // the first offence in the order of precedence.
            try InputCheck.check(Array(input))
        }
    }

    private var hasOffence = false

    private init(_ input: UnsafeBufferPointer<UInt8>, classes: UnsafeBufferPointer<UInt8>) {
        var hasOffence = false
        var needsEncoding = false
        var firstQuestion: Int?
        var firstHash: Int?
        var lastHash = 0
        var ampersands: [Int] = []
        var percents: [Int] = []
        ampersands.reserveCapacity(16)
        var index = 0
        let count = input.count
        while true {
            // Most bytes of a link are token characters: skip them eight at a time, in a loop that does nothing else.
            while index + 8 <= count {
                let any =
                    classes[Int(input[index])] | classes[Int(input[index + 1])] | classes[Int(input[index + 2])]
                    | classes[Int(input[index + 3])] | classes[Int(input[index + 4])]
                    | classes[Int(input[index + 5])] | classes[Int(input[index + 6])]
                    | classes[Int(input[index + 7])]
                if any != Class.boring { break }
                index += 8
            }
            while index < count && classes[Int(input[index])] == Class.boring { index += 1 }
            guard index < count else { break }
            switch classes[Int(input[index])] {
            case Class.refused:
                hasOffence = true
            case Class.percent:
                if percents.count < Self.ampersandCap { percents.append(index) }
                if index + 2 >= count || PercentEncoding.hexValue(input[index + 1]) == nil
                    || PercentEncoding.hexValue(input[index + 2]) == nil
                {
                    hasOffence = true
                }
            case Class.nonASCII:
                needsEncoding = true
            case Class.encoded:
                needsEncoding = true
            case Class.question:
                if firstQuestion == nil && firstHash == nil { firstQuestion = index }
            case Class.hash:
                if firstHash == nil { firstHash = index }
                lastHash = index
            default:
                if ampersands.count < Self.ampersandCap { ampersands.append(index) }
            }
            index += 1
        }
        self.needsEncoding = needsEncoding
        self.firstQuestion = firstQuestion
        self.firstHash = firstHash
        self.lastHash = firstHash == nil ? nil : lastHash
        self.ampersands = ampersands
        self.percents = percents
        self.hasOffence = hasOffence
    }
}
