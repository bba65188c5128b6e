/// Removes secrets from a link's text before it is shown or logged.
///
/// What it removes, in any text (a link, parsed or not, or a message that quotes one):
/// - the value of every secret-named parameter (`access_token=…`, `oobCode=…`; names compared without case);
/// - the password of a link's userinfo (`https://user:PASSWORD@host/…`);
/// - both of these inside percent-encoded text, such as a link nested in another link's `link=` parameter, also when
///   it was encoded twice or more, down to ``maximumNesting`` levels: text still encoded below that is removed whole;
/// - every occurrence of the given secret values, written as they are or percent-encoded, and every run of
///   ``fragmentLength`` bytes or more of one of them or of its base64 or base64url forms.
///
/// The work is linear in the text's length for each level of nesting, whatever the text holds.
public enum LinkRedactor {
    /// How many times text is percent-decoded to look inside it.
    public static let maximumNesting = 4

    /// `text` with its secrets replaced by `<redacted>` (see ``LinkRedactor``).
    ///
    /// - Parameters:
    ///   - text: a link or a message; it may be malformed or hostile.
    ///   - values: secret values to remove wherever they occur, such as a route's path captures; values shorter than
    ///     four bytes are left alone, since they would blot out ordinary words.
    /// - Returns: `text` itself when it holds nothing to remove.
    public static func redact(_ text: String, values: [Secret] = []) -> String {
        redact(text, values: Values(values))
    }

    /// `text` with its secrets replaced by `<redacted>` (see ``LinkRedactor``), and `values` wherever they occur:
    /// whole (as written or percent-encoded), and any run of ``fragmentLength`` bytes or more of one of them or of
    /// its base64 or base64url forms.
    ///
    /// - Returns: `text` itself when it holds nothing to remove.
    public static func redact(_ text: String, values: Values) -> String {
        // Redacted text is redacted again until nothing changes: a replacement can join what was around it into
        // something the redactor reads as a secret (a name before it, encoded text after it), and what a second
        // pass finds the first one showed. Text that still changes after a few passes is hostile: all of it goes.
        var current = text
        for _ in 0..<4 {
            guard let next = redactedOnce(current, values) else { return current }
            current = next
        }
        return redactedOnce(current, values) == nil ? current : Secret.redacted
    }

    /// `text` with what one pass finds replaced; `nil` when it finds nothing.
    private static func redactedOnce(_ text: String, _ values: Values) -> String? {
        let bytes = Array(text.utf8)
        guard !values.isEmpty || bytes.contains(where: mayHoldSecret) else { return nil }
        var found: [Range<Int>] = []
        collect(in: bytes, depth: 0, into: &found)
        if !values.isEmpty { collect(values, in: bytes, into: &found) }
        guard !found.isEmpty else { return nil }
        let redacted = String(decoding: replacing(found, in: bytes), as: UTF8.self)
        return redacted == text ? nil : redacted
    }

    /// `bytes` with each of `ranges` (which may overlap) replaced by `<redacted>`.
    private static func replacing(_ ranges: [Range<Int>], in bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0
        var pending: Range<Int>?
        func emit(_ range: Range<Int>) {
            output += bytes[copied..<range.lowerBound]
            output += Secret.redacted.utf8
            copied = range.upperBound
        }
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let current = pending, range.lowerBound <= current.upperBound {
                pending = current.lowerBound..<max(current.upperBound, range.upperBound)
            } else {
                if let current = pending { emit(current) }
                pending = range
            }
        }
        if let current = pending { emit(current) }
        output += bytes[copied...]
        return output
    }
}
