extension LinkRedactor {
    /// How many bytes in a row of a secret value (or of its base64 forms) are enough to remove them: a program that
    /// prints only a token's first thirty characters, or its last ones, still prints a secret.
    public static let fragmentLength = 12

    /// Secret values made ready to be looked for in many texts (the output of a program, line by line): each value
    /// as written, and its base64 and base64url forms at the three ways a value can be aligned in encoded data.
    public struct Values: Sendable {
        /// Values of four bytes up to ``LinkRedactor/fragmentLength``, looked for whole, as written or
        /// percent-encoded; a longer value is found by its fragments (its windows cover it wherever it occurs).
        let whole: [[UInt8]]
        /// Every ``LinkRedactor/fragmentLength``-byte window of the values and their encoded forms.
        let fragments: FragmentIndex

        /// Makes `values` ready; values shorter than four bytes are left alone (they would blot out ordinary words),
        /// and fragments are taken of values and forms of at least ``LinkRedactor/fragmentLength`` bytes.
        public init(_ values: [Secret]) {
            let bytes = values.map { Array($0.revealed().utf8) }
            whole = bytes.filter { (4..<LinkRedactor.fragmentLength).contains($0.count) }
            fragments = FragmentIndex(forms: bytes.flatMap(LinkRedactor.writtenForms(of:)))
        }

        /// Whether there is nothing to look for.
        var isEmpty: Bool { whole.isEmpty && fragments.isEmpty }
    }

    /// `value` as written, and base64 and base64url encodings of it: for each of the three offsets at which it can
    /// start within encoded data, the characters that depend on its bytes alone (no padding, no neighbour's bits).
    static func writtenForms(of value: [UInt8]) -> [[UInt8]] {
        var forms = [value]
        guard value.count >= fragmentLength else { return forms }
        for offset in 0..<3 {
            let standard = base64([UInt8](repeating: 0, count: offset) + value)
            // Characters before `first` carry bits of the offset's bytes; from `end` on, bits after the value.
            let first = (offset * 8 + 5) / 6
            let end = (offset + value.count) * 8 / 6
            guard first < end else { continue }
            let own = Array(standard[first..<end])
            forms.append(own)
            forms.append(
                own.map {
                    $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0
                }
            )
        }
        return forms
    }

    /// `bytes` in base64 (RFC 4648, standard alphabet), without padding.
    private static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var bits: UInt32 = 0
            for (position, byte) in chunk.enumerated() { bits |= UInt32(byte) << (16 - 8 * position) }
            for position in 0..<(chunk.count + 1) { output.append(alphabet[Int((bits >> (18 - 6 * position)) & 63)]) }
            index += 3
        }
        return output
    }

    /// The ``LinkRedactor/fragmentLength``-byte windows of some forms, to find where text holds any run of that
    /// many bytes of one of them: what the windows that match cover, together, is the run.
    struct FragmentIndex: Sendable {
        /// Twelve bytes, as one key.
        private struct Window: Hashable, Sendable {
            var low: UInt64
            var high: UInt32
        }

        private var windows: Set<Window> = []

        init(forms: [[UInt8]]) {
            for form in forms where form.count >= LinkRedactor.fragmentLength {
                for start in 0...(form.count - LinkRedactor.fragmentLength) {
                    windows.insert(Self.window(form, at: start))
                }
            }
        }

        var isEmpty: Bool { windows.isEmpty }

        /// The ranges of `bytes` covered by windows of the forms (overlapping ranges, merged by the caller).
        func ranges(in bytes: [UInt8]) -> [Range<Int>] {
            guard !windows.isEmpty, bytes.count >= LinkRedactor.fragmentLength else { return [] }
            var found: [Range<Int>] = []
            for start in 0...(bytes.count - LinkRedactor.fragmentLength)
            where windows.contains(Self.window(bytes, at: start)) {
                if let last = found.last, last.upperBound >= start {
                    found[found.count - 1] = last.lowerBound..<(start + LinkRedactor.fragmentLength)
                } else {
                    found.append(start..<(start + LinkRedactor.fragmentLength))
                }
            }
            // A window of a value's raw bytes may begin or end inside a character: a run goes out to whole ones.
            return found.map { range in
                var (lower, upper) = (range.lowerBound, range.upperBound)
                while lower > 0 && Self.isContinuation(bytes[lower]) { lower -= 1 }
                while upper < bytes.count && Self.isContinuation(bytes[upper]) { upper += 1 }
                return lower..<upper
            }
        }

        /// Whether `byte` continues a UTF-8 sequence (`10xxxxxx`), so that no character starts at it.
        private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

        private static func window(_ bytes: [UInt8], at start: Int) -> Window {
            bytes.withUnsafeBytes { raw in
                Window(
                    low: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self),
                    high: raw.loadUnaligned(fromByteOffset: start + 8, as: UInt32.self)
                )
            }
        }
    }
}
