import LinkdFormats
import Testing

/// JSON as linkd writes it: what JSON requires escaped, and every scalar a terminal acts on as well, read back as
/// the same string.
struct JSONValueWritingTests {
    @Test(arguments: [
        ("plain", #""plain""#),
        ("quote \" and \\", #""quote \" and \\""#),
        ("\u{1B}[31m\u{07}", #""\u001b[31m\u0007""#),
        ("del \u{7F} c1 \u{9B}\u{85}", #""del \u007f c1 \u009b\u0085""#),
        ("bidi \u{202E}\u{2066} soft\u{AD}", #""bidi \u202e\u2066 soft\u00ad""#),
        ("lines \u{2028}\u{2029}", #""lines \u2028\u2029""#),
        ("tag \u{E0041}", #""tag \udb40\udc41""#),
        ("é → 日本", "\"é → 日本\""),
    ])
    func aStringIsWrittenWithEveryControlEscaped(_ text: String, _ written: String) throws {
        let serialized = JSONValue.string(text).serialized
        #expect(serialized == written)
        #expect(try JSONValue.parse(Array(serialized.utf8)) == .string(text))
    }
}
