import Foundation
import LinkdFormats
import Testing

/// A secret value is removed from text in part and in encodings too: any run of twelve bytes or more of it, and its
/// base64 and base64url forms at each alignment, whatever surrounds them.
@Suite struct LinkRedactorFragmentTests {
    static let token = "Ab3dEf6hIj9lMn2pQr5tUv8xYz1bCd4fGh7jKl0nOp3r"
    static let values = LinkRedactor.Values([Secret(token)])

    static func redact(_ text: String) -> String { LinkRedactor.redact(text, values: values) }

    @Test func aLongPrefixSuffixOrMiddleRunIsRemoved() {
        #expect(Self.redact("first: \(Self.token.prefix(30)) end") == "first: <redacted> end")
        #expect(Self.redact("last=\(Self.token.suffix(20))") == "last=<redacted>")
        let middle = Self.token.dropFirst(10).prefix(12)
        #expect(Self.redact("[\(middle)]") == "[<redacted>]")
    }

    @Test func aRunShorterThanTheFragmentLengthStays() {
        let short = String(Self.token.prefix(LinkRedactor.fragmentLength - 1))
        #expect(Self.redact("short \(short)") == "short \(short)")
    }

    /// base64 of the token behind zero, one and two other bytes (so at each of the three alignments), standard and
    /// URL-safe: only the characters that also carry those other bytes' bits are left.
    @Test(arguments: ["", "a", "ab", "user:", "Bearer "])
    func base64FormsAreRemovedAtEveryAlignment(_ before: String) {
        let standard = Data((before + Self.token).utf8).base64EncodedString()
        let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        for encoded in [standard, url] {
            let redacted = Self.redact("auth \(encoded)")
            #expect(redacted.contains("<redacted>"), "\(redacted)")
            // Nothing of twelve characters of the encoding stands in it any more.
            let kept = redacted.replacingOccurrences(of: "auth ", with: "").components(separatedBy: "<redacted>")
            #expect(kept.allSatisfy { $0.count < 12 }, "\(redacted)")
            #expect(kept.joined().count <= (before.utf8.count * 4 + 2) / 3 + 4, "\(redacted)")
        }
    }

    @Test func aPercentEncodedRunIsRemoved() {
        let encoded = Self.token.prefix(24).unicodeScalars.map { String(format: "%%%02X", $0.value) }.joined()
        #expect(Self.redact("p=\(encoded)") == "p=<redacted>")
    }

    @Test func textWithoutTheSecretIsLeftAsItIs() {
        let text = "the program started; nothing of the token here: 0123456789abcdefghijklmnop"
        #expect(Self.redact(text) == text)
    }
}
