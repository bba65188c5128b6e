import LinkdFormats

extension FuzzTarget {
    /// ``LinkRedactor/redact(_:values:)`` on any text with up to four secret values: no value of four bytes or more
    /// shows in the redacted text, read as the pieces between its `<redacted>` markers; redacting it again changes
    /// nothing; it cuts no character in two (it holds no more U+FFFD than the text); and text with no value and no
    /// `=`, `@` or `%` comes back as it was.
    ///
    /// Why pieces: redacted text is text that one more pass leaves as it is (or one marker, for hostile text that
    /// keeps changing), and a pass puts a marker in the place of every occurrence of a value. So a value can still
    /// show only where a marker in its place changes nothing: inside a marker (`dact`, `<redacted>` itself), or
    /// across one, with the bytes kept around it (`ab<redacted>cd` holds `d>cd`, and `abcd` once the marker is
    /// taken out, so the check cuts at markers rather than removing them). Both are the marker's doing, not a
    /// leak; a value whole in a piece between markers is one the redactor left.
    ///
    /// The check covers each value as written (``shownForms(of:)``): the redactor also removes values in
    /// percent-encoded text, but an encoding can be written in many ways, and the invariant must stay true as the
    /// redactor learns more forms.
    ///
    /// An input is the text, then each value after a NUL byte (bytes that are no UTF-8 read as U+FFFD, as
    /// `String(decoding:as:)` reads them).
    package static let redactor = FuzzTarget("redactor") { bytes in
        let fields = bytes.split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false)
        let text = String(decoding: fields[0], as: UTF8.self)
        let values = fields.dropFirst().map { Secret(String(decoding: $0, as: UTF8.self)) }
        // Made ready once, as the daemon does for the lines of a program's output.
        let prepared = LinkRedactor.Values(values)
        let redacted = LinkRedactor.redact(text, values: prepared)
        let pieces = Self.pieces(of: Array(redacted.utf8))
        for value in values where value.byteCount >= 4 {
            for form in shownForms(of: value) {
                require(!pieces.contains { Self.contains($0, form) }, "a secret value shows in redacted text")
            }
        }
        require(
            redacted == Secret.redacted || LinkRedactor.redact(redacted, values: prepared) == redacted,
            "redacted text changes when redacted again"
        )
        let replacement = Array("\u{FFFD}".utf8)
        require(
            Self.count(replacement, in: Array(redacted.utf8)) <= Self.count(replacement, in: Array(text.utf8)),
            "a redaction cut a character in two"
        )
        if values.allSatisfy({ $0.byteCount < 4 }) && !text.utf8.contains(where: { "=@%".utf8.contains($0) }) {
            require(redacted == text, "text with nothing to remove changed")
        }
    }

    /// The forms of `value` that must not show in redacted text: the value as written. A form joins this list when
    /// the redactor removes it wherever it occurs and nothing but the value spells it.
    private static func shownForms(of value: Secret) -> [[UInt8]] {
        [Array(value.revealed().utf8)]
    }

    /// The pieces of `bytes` between `<redacted>` markers (a marker's `<` starts no other marker, so they never
    /// overlap).
    private static func pieces(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        let marker = Array(Secret.redacted.utf8)
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: marker) {
                pieces.append(bytes[start..<index])
                index += marker.count
                start = index
            } else {
                index += 1
            }
        }
        pieces.append(bytes[start...])
        return pieces
    }

    /// How many times `needle` (not empty) occurs in `haystack`, not overlapping.
    private static func count(_ needle: [UInt8], in haystack: [UInt8]) -> Int {
        var count = 0
        var index = 0
        while index + needle.count <= haystack.count {
            if haystack[index...].starts(with: needle) {
                count += 1
                index += needle.count
            } else {
                index += 1
            }
        }
        return count
    }
}
