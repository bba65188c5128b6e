import Foundation
import LinkdFormats
import Testing

@Suite struct LinkRedactorTests {
    /// `text` percent-encoded the way `encodeURIComponent` does, `times` over.
    static func encoded(_ text: String, times: Int = 1) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return (0..<times).reduce(text) { text, _ in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
    }

    static let action = "https://app.example.com/__/auth/action?mode=resetPassword&oobCode=SECRET1&apiKey=KEY12345"

    @Test(arguments: [
        // Parameters as written, with an encoded or upper-case name, after an HTML-escaped `&amp;`, in a message.
        ("myapp://cb#access_token=a.b.c&type=recovery", "myapp://cb#access_token=<redacted>&type=recovery"),
        ("myapp://cb?access%5Ftoken=a.b.c&x=1", "myapp://cb?access%5Ftoken=<redacted>&x=1"),
        ("myapp://cb?OOBCODE=SECRET1", "myapp://cb?OOBCODE=<redacted>"),
        ("https://h/a?mode=x&amp;oobCode=SECRET1", "https://h/a?mode=x&amp;oobCode=<redacted>"),
        ("no route for 'myapp://cb?code=SECRET1'; nearest", "no route for 'myapp://cb?code=<redacted>'; nearest"),
        ("the program said token=SECRET1, done", "the program said token=<redacted> done"),
        ("myapp://cb?code=SECRET1?tail", "myapp://cb?code=<redacted>"),
        // A link nested in a parameter or in the path, unencoded.
        ("https://h/?redirect_to=myapp://cb#code=SECRET1", "https://h/?redirect_to=myapp://cb#code=<redacted>"),
        // The password of a link's userinfo, however the link is written.
        ("https://user:PASSWORD@host/x", "https://user:<redacted>@host/x"),
        ("refused 'https://user:PASS WORD@host/x'", "refused 'https://user:<redacted>@host/x'"),
        ("https:user:PASSWORD@host/x", "https:user:<redacted>@host/x"),
        ("https:\\\\user:PA@SS@host", "https:\\\\user:<redacted>@host"),
        ("myapp://user:PASSWORD@host", "myapp://user:<redacted>@host"),
        // Left alone: no secret in them.
        ("the password of a***@example.com was changed", "the password of a***@example.com was changed"),
        ("mailto:alice@example.com", "mailto:alice@example.com"),
        ("myapp://cb?code=&next=%2Fhome", "myapp://cb?code=&next=%2Fhome"),
        ("no route for 'com.example.notes://nosuch'", "no route for 'com.example.notes://nosuch'"),
    ])
    func redactsSecretsInText(_ text: String, _ expected: String) {
        #expect(LinkRedactor.redact(text) == expected)
    }

    @Test func redactsASecretInANestedEncodedLink() {
        let link = "https://x.page.link/?link=\(Self.encoded(Self.action))&apn=com.example"
        #expect(
            LinkRedactor.redact(link)
                == "https://x.page.link/?link=https%3A%2F%2Fapp.example.com%2F__%2Fauth%2Faction%3Fmode%3DresetPassword"
                + "%26oobCode%3D<redacted>%26apiKey%3D<redacted>&apn=com.example"
        )
    }

    @Test(arguments: 1...LinkRedactor.maximumNesting + 3)
    func redactsASecretEncodedAnyNumberOfTimes(_ times: Int) {
        let link = "https://x.page.link/?link=\(Self.encoded(Self.action, times: times))&apn=com.example"
        let redacted = LinkRedactor.redact(link)
        #expect(!redacted.contains("SECRET1") && !redacted.contains("KEY12345"), "\(redacted)")
        #expect(redacted.hasPrefix("https://x.page.link/?link=") && redacted.hasSuffix("&apn=com.example"))
        if times <= LinkRedactor.maximumNesting {
            // Within the limit only the secrets go: the rest of the nested link stays readable.
            #expect(redacted.contains("resetPassword"))
        }
    }

    @Test func redactsAPasswordInAnEncodedLink() {
        let link = "https://h/open?link=" + Self.encoded("https://user:PASSWORD@host/x", times: 2)
        #expect(
            LinkRedactor.redact(link) == "https://h/open?link=https%253A%252F%252Fuser%253A<redacted>%2540host%252Fx"
        )
    }

    @Test func redactsGivenValuesAsWrittenAndEncoded() {
        let values = [Secret("PATHSECRET")]
        #expect(
            LinkRedactor.redact("com.example.notes://reset/PATHSECRET", values: values).hasSuffix("/reset/<redacted>")
        )
        #expect(LinkRedactor.redact("com.example.notes://reset/PATH%53ECRET", values: values).hasSuffix("/<redacted>"))
        #expect(
            LinkRedactor.redact("https://h/?link=" + Self.encoded("x://r/PATH%53ECRET"), values: values)
                == "https://h/?link=x%3A%2F%2Fr%2F<redacted>"
        )
        #expect(LinkRedactor.redact("short abc", values: [Secret("abc")]) == "short abc")
    }

    @Test(.disabled(if: ProcessInfo.processInfo.environment["LINKD_SANITIZER"] != nil, "bounds time"))
    func staysLinearOnHostileText() {
        // Each level of nesting decodes only two bytes of these away; a quadratic redactor takes minutes on them.
        let deep = "link=%" + String(repeating: "25", count: 200_000)
        let nearMisses = String(repeating: "a", count: 200_000)
        // Eleven of them match the value, then it differs; no twelve bytes of it are all "a" (no fragment of it).
        let elevenAs = String(repeating: "a", count: 11)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(LinkRedactor.redact(deep) == "link=<redacted>")
            #expect(
                LinkRedactor.redact(nearMisses, values: [Secret(String(repeating: elevenAs + "b", count: 333) + "c")])
                    == nearMisses
            )
        }
        // Loose: the machine is shared and the tests run in parallel; a quadratic redactor takes far longer. Not
        // bounded while another run of the tests shares the machine (`scripts/test-fresh-clone`'s two at once).
        if ProcessInfo.processInfo.environment["LINKD_TESTS_AT_ONCE"] == nil { #expect(elapsed < .seconds(10)) }
    }
}
