import LinkdRouting
import Testing

/// Links in mail scanners' wrappers, read locally: Outlook Safe Links and Google's redirector as their makers write
/// them, nested ones, and look-alikes that are no wrapper.
struct LinkWrapperTests {
    static let reset = "https://notes.example.com/reset?token=abc&tokenId=def"
    static let encodedReset = "https%3A%2F%2Fnotes.example.com%2Freset%3Ftoken%3Dabc%26tokenId%3Ddef"

    static func unwrapped(_ text: String) throws -> String? {
        LinkWrapper.unwrap(try LinkURL(parsing: text))?.href
    }

    @Test(arguments: [
        // Safe Links as Outlook writes them: the region, the link percent-encoded, then data, sdata and reserved.
        "https://nam12.safelinks.protection.outlook.com/?url=\(encodedReset)&data=05%7C02%7Cada%40example.com%7C0b1c"
            + "%7C72f988bf86f141af91ab2d7cd011db47%7C1%7C0%7C638%7CUnknown&sdata=Xq1%2Bk%3D&reserved=0",
        "https://eur03.safelinks.protection.outlook.com/?url=\(encodedReset)&reserved=0",
        // Google's redirector: q= from Gmail and Docs, url= from search results.
        "https://www.google.com/url?q=\(encodedReset)&sa=D&source=editors&ust=1733300000000000&usg=AOvVaw0",
        "https://www.google.com/url?sa=t&url=\(encodedReset)&usg=AOvVaw1",
        "https://google.com/url?q=\(encodedReset)",
    ])
    func theLinkInsideAWrapperIsRead(_ wrapped: String) throws {
        #expect(try Self.unwrapped(wrapped) == Self.reset)
    }

    @Test func aCustomSchemeLinkInsideIsReadToo() throws {
        let inner = "com.example.notes%3A%2F%2Freset%23access_token%3Da.b.c%26type%3Drecovery"
        let wrapped = "https://nam02.safelinks.protection.outlook.com/?url=\(inner)&reserved=0"
        #expect(try Self.unwrapped(wrapped) == "com.example.notes://reset#access_token=a.b.c&type=recovery")
    }

    @Test func wrappersInsideWrappersAreReadToTheLink() throws {
        let google = "https://www.google.com/url?q=\(Self.encodedReset)&sa=D"
        let percentEncoded = google.utf8.map { byte -> String in
            let character = Character(Unicode.Scalar(byte))
            return character.isLetter || character.isNumber || ".-_".contains(character)
                ? String(character) : "%" + String(byte, radix: 16, uppercase: true)
        }.joined()
        let safe = "https://nam12.safelinks.protection.outlook.com/?url=\(percentEncoded)&reserved=0"
        #expect(LinkWrapper.of(try LinkURL(parsing: safe)) == .outlookSafeLinks)
        #expect(try Self.unwrapped(safe) == Self.reset)
    }

    @Test(arguments: [
        // Not the wrapper's host, path, scheme or port.
        "https://nam12.safelinks.protection.outlook.com.evil.example/?url=\(encodedReset)",
        "https://safelinks.protection.outlook.com.example/?url=\(encodedReset)",
        "https://nam12.safelinks.protection.outlook.com/other?url=\(encodedReset)",
        "http://nam12.safelinks.protection.outlook.com/?url=\(encodedReset)",
        "https://nam12.safelinks.protection.outlook.com:8443/?url=\(encodedReset)",
        "https://www.google.com.evil.example/url?q=\(encodedReset)",
        "https://www.google.com/search?q=\(encodedReset)",
        "https://mail.google.com/url?q=\(encodedReset)",
        // A wrapper holding no link, the link in the fragment, or a link linkd refuses.
        "https://nam12.safelinks.protection.outlook.com/?data=05&reserved=0",
        "https://nam12.safelinks.protection.outlook.com/?url=",
        "https://www.google.com/url#q=\(encodedReset)",
        "https://www.google.com/url?q=javascript%3Aalert(1)",
        "https://www.google.com/url?q=not%20a%20link",
        Self.reset,
    ])
    func aLinkThatIsNoWrapperOrHoldsNoLinkIsLeftAsItIs(_ text: String) throws {
        #expect(try Self.unwrapped(text) == nil)
    }

    @Test func nestingDeeperThanTheLimitStopsAtTheLimit() throws {
        var link = Self.reset
        for _ in 0..<(LinkWrapper.maximumDepth + 1) {
            let encoded = link.utf8.map { byte -> String in
                let character = Character(Unicode.Scalar(byte))
                return character.isLetter || character.isNumber ? String(character) : "%" + String(byte, radix: 16)
            }.joined()
            link = "https://www.google.com/url?q=\(encoded)"
        }
        let result = try #require(LinkWrapper.unwrap(try LinkURL(parsing: link)))
        #expect(LinkWrapper.of(result) == .googleRedirect, "one wrapper is left: \(result.href)")
    }
}
