import LinkdRouting
import Testing

@Suite struct LinkURLTests {
    struct Accepted: Sendable, CustomStringConvertible {
        var input: String
        var href: String
        var hostname: String
        var pathname: String
        var search = ""
        var hash = ""
        var port = ""
        var description: String { input }
    }

    static let accepted: [Accepted] = [
        Accepted(
            input: "https://app.example.com/reset?token=abc&tokenId=def",
            href: "https://app.example.com/reset?token=abc&tokenId=def",
            hostname: "app.example.com",
            pathname: "/reset",
            search: "?token=abc&tokenId=def"
        ),
        Accepted(
            input: "myapp://reset#access_token=a.b.c&refresh_token=r&type=recovery",
            href: "myapp://reset#access_token=a.b.c&refresh_token=r&type=recovery",
            hostname: "reset",
            pathname: "",
            hash: "#access_token=a.b.c&refresh_token=r&type=recovery"
        ),
        Accepted(
            input: "HTTPS://App.Example.COM:443/Reset",
            href: "https://app.example.com/Reset",
            hostname: "app.example.com",
            pathname: "/Reset"
        ),
        Accepted(
            input: "com.example.Notes://Reset/Now",
            href: "com.example.notes://Reset/Now",
            hostname: "Reset",
            pathname: "/Now"
        ),
        Accepted(input: "http://0x7f.1/", href: "http://127.0.0.1/", hostname: "127.0.0.1", pathname: "/"),
        Accepted(
            input: "http://[::FFFF:1.2.3.4]:8080",
            href: "http://[::ffff:102:304]:8080/",
            hostname: "[::ffff:102:304]",
            pathname: "/",
            port: "8080"
        ),
        Accepted(
            input: "https://h.example/a b?".replacingSpace(),
            href: "https://h.example/a%7Bb?",
            hostname: "h.example",
            pathname: "/a%7Bb"
        ),
        Accepted(
            input: "myapp://note/caf\u{E9}?q=\u{E9}#\u{E9}",
            href: "myapp://note/caf%C3%A9?q=%C3%A9#%C3%A9",
            hostname: "note",
            pathname: "/caf%C3%A9",
            search: "?q=%C3%A9",
            hash: "#%C3%A9"
        ),
        Accepted(
            input: "https://h.example/?a='b'#x`y",
            href: "https://h.example/?a=%27b%27#x%60y",
            hostname: "h.example",
            pathname: "/",
            search: "?a=%27b%27",
            hash: "#x%60y"
        ),
        Accepted(
            input: "http://localhost:/#/#access_token=x",
            href: "http://localhost/#/#access_token=x",
            hostname: "localhost",
            pathname: "/",
            hash: "#/#access_token=x"
        ),
        Accepted(input: "myapp:reset", href: "myapp:reset", hostname: "", pathname: "reset"),
        Accepted(input: "myapp:///x", href: "myapp:///x", hostname: "", pathname: "/x"),
        Accepted(
            input: "https://xn--mnchen-3ya.de/",
            href: "https://xn--mnchen-3ya.de/",
            hostname: "xn--mnchen-3ya.de",
            pathname: "/"
        ),
        Accepted(
            input: "https://h.example/..a/.b./%2e%2ex",
            href: "https://h.example/..a/.b./%2e%2ex",
            hostname: "h.example",
            pathname: "/..a/.b./%2e%2ex"
        ),
    ]

    @Test(arguments: accepted)
    func readsLinkAsWHATWG(_ row: Accepted) throws {
        let link = try LinkURL(parsing: row.input)
        #expect(link.href == row.href)
        #expect(link.hostname == row.hostname)
        #expect(link.pathname == row.pathname)
        #expect(link.search == row.search)
        #expect(link.hash == row.hash)
        #expect(link.portText == row.port)
        #expect(link.username == "" && link.password == "")
        // What LinkURL writes, it reads back the same.
        #expect(try LinkURL(parsing: link.href) == link)
    }

    struct Refused: Sendable, CustomStringConvertible {
        var input: String
        var reason: RefusalReason
        var part: LinkPart
        var description: String { "\(reason.rawValue): \(input.prefix(60).debugDescription)" }
        init(_ input: String, _ reason: RefusalReason, _ part: LinkPart) {
            self.input = input
            self.reason = reason
            self.part = part
        }
    }

    static let refused: [Refused] = [
        Refused(String(repeating: "a", count: 16_385), .tooLong, .input),
        Refused("https://h.example/?t=" + String(repeating: "x", count: 16_400), .tooLong, .input),
        Refused("", .empty, .input),
        Refused(" https://h.example/", .surroundingWhitespace, .input),
        Refused("https://h.example/\u{A0}", .surroundingWhitespace, .input),
        Refused("https://h.example/\u{3000}", .surroundingWhitespace, .input),
        Refused("https://evil.example\\@app.example.com/", .invalidCharacter, .host),
        Refused("https://app.example.com\\evil.example/reset", .invalidCharacter, .host),
        Refused("https://h.example/a\tb", .invalidCharacter, .path),
        Refused("https://h.example/?a=\u{0}", .invalidCharacter, .query),
        Refused("myapp://reset#t=a\u{7F}", .invalidCharacter, .fragment),
        Refused("myapp://reset#t=a\u{85}b", .invalidCharacter, .fragment),
        Refused("myapp://reset?x=\u{2028}y", .invalidCharacter, .query),
        Refused("https://h.example/a b", .invalidCharacter, .path),
        Refused("reset", .noScheme, .scheme),
        Refused("//app.example.com/reset", .noScheme, .scheme),
        Refused("1app://reset", .noScheme, .scheme),
        Refused("javascript:alert(1)", .blockedScheme, .scheme),
        Refused("JavaScript://%0aalert(1)", .blockedScheme, .scheme),
        Refused("data:text/html,x", .blockedScheme, .scheme),
        Refused("file:///etc/passwd", .blockedScheme, .scheme),
        Refused("mailto:a@example.com", .blockedScheme, .scheme),
        Refused("https://h.example/%zz", .badPercentEncoding, .path),
        Refused("myapp://reset?token=%4", .badPercentEncoding, .query),
        Refused("myapp://reset#token=abc%", .badPercentEncoding, .fragment),
        Refused("https:app.example.com/", .badAuthority, .host),
        Refused("https:/app.example.com/", .badAuthority, .host),
        Refused("https:///app.example.com/", .badAuthority, .host),
        Refused("https://app.example.com@evil.example/", .userinfo, .userinfo),
        Refused("https://user:pass@app.example.com/", .userinfo, .userinfo),
        Refused("myapp://user@reset", .userinfo, .userinfo),
        Refused("https://@app.example.com/", .userinfo, .userinfo),
        Refused("https://\u{430}pp.example.com/", .nonASCIIHost, .host),
        Refused("https://b\u{FC}cher.example/", .nonASCIIHost, .host),
        Refused("https://app.ex%61mple.com/", .badHost, .host),
        Refused("https://app.example.com%40evil.example/", .badHost, .host),
        Refused("https://xn--pp-6kc.xn--zz/", .badHost, .host),
        Refused("https://xn--/", .badHost, .host),
        Refused("https://a<b.example/", .badHost, .host),
        Refused("https://[::1/", .badHost, .host),
        Refused("http://1.2.3.256/", .badHost, .host),
        Refused("https://:443/", .badHost, .host),
        Refused("myapp://:1/x", .badHost, .host),
        Refused("https://app.example.com:99999/", .badPort, .port),
        Refused("https://app.example.com:44a/", .badPort, .port),
        Refused("myapp://reset:65536", .badPort, .port),
        Refused("https://app.example.com/reset/../admin", .dotSegment, .path),
        Refused("https://app.example.com/reset/%2e%2e/admin", .dotSegment, .path),
        Refused("https://app.example.com/reset/%2E%2e/admin", .dotSegment, .path),
        Refused("myapp://reset/./x", .dotSegment, .path),
        Refused("myapp://reset/.%2E", .dotSegment, .path),
    ]

    @Test(arguments: refused)
    func refusesNamingReasonAndPart(_ row: Refused) {
        #expect {
            try LinkURL(parsing: row.input)
        } throws: { error in
            guard let refusal = (error as? RouteError)?.refusal else { return false }
            return refusal.reason == row.reason && refusal.part == row.part && !refusal.message.isEmpty
        }
    }

    @Test func everyParseReasonIsCoveredTwice() {
        let parseReasons: [RefusalReason] = [
            .tooLong, .empty, .surroundingWhitespace, .invalidCharacter, .invalidUTF8, .noScheme, .blockedScheme,
            .badPercentEncoding, .badAuthority, .userinfo, .nonASCIIHost, .badHost, .badPort, .dotSegment,
        ]
        for reason in parseReasons where reason != .empty && reason != .invalidUTF8 {
            #expect(Self.refused.filter { $0.reason == reason }.count >= 2, "\(reason)")
        }
    }

    @Test(arguments: [[0x6D, 0x79, 0x3A, 0x2F, 0x2F, 0xFF], [0x68, 0x3A, 0xC3, 0x28], [0xE2, 0x82]] as [[UInt8]])
    func refusesBytesThatAreNotUTF8(_ bytes: [UInt8]) {
        #expect(throws: RouteError.refused(.invalidUTF8, part: .input, "the link is not valid UTF-8")) {
            try LinkURL(parsing: bytes)
        }
    }

    @Test func refusesEmptyBytesAndEmptyString() {
        let empty = RouteError.refused(.empty, part: .input, "the link is empty")
        #expect(throws: empty) { try LinkURL(parsing: "") }
        #expect(throws: empty) { try LinkURL(parsing: [UInt8]()) }
    }

    @Test func checksLengthBeforeAnythingElse() {
        // Both too long and broken in every other way: the limit is what it reports.
        let input = " \\\u{0}%zz" + String(repeating: "\u{3000}", count: 6_000)
        #expect(throws: RouteError.refused(.tooLong, part: .input, "the link is longer than 16384 bytes")) {
            try LinkURL(parsing: input)
        }
        #expect(throws: Never.self) { try LinkURL(parsing: "myapp://r?" + String(repeating: "a", count: 16_374)) }
    }

    @Test func writesTheLongestSerialisationsWithinTheirRoom() throws {
        // Room is made for three bytes for each byte from the first to encode to the last, and 48 for a host
        // written longer: links that take all of it, on the general road and on the plain one, as long as a link
        // may be.
        let fill = String(repeating: "\u{E9}<\"", count: 4_000)
        let links = [
            "myapp://h/" + fill, "https://h.example/?" + fill, "https://h.example/#" + fill,
            "http://[::1]/" + fill, "http://0x7f.1/?" + fill, "myapp://h%C3%A9/" + fill,
        ]
        for text in links {
            // Each `é<"` (four bytes) is written as twelve.
            let href = try LinkURL(parsing: text).href
            #expect(href.utf8.count >= text.utf8.count + 8 * 4_000, "\(text.prefix(20))")
            #expect(href.hasSuffix(String(repeating: "%C3%A9%3C%22", count: 4_000)), "\(text.prefix(20))")
        }
    }

    @Test func hostileInputNeverCrashes() throws {
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet = Array("ab:/?#@%2e.[]\\ \u{0}\u{7F}\u{A0}xn--0123456789&=+;:,".unicodeScalars)
        for _ in 0..<5_000 {
            var text = ["https://", "myapp://", "http:", ""][Int(generator.next() % 4)]
            for _ in 0..<Int(generator.next() % 40) {
                text.unicodeScalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
            }
            if let link = try? LinkURL(parsing: text) {
                #expect(try LinkURL(parsing: link.href) == link, "\(text.debugDescription)")
            }
        }
    }
}

extension String {
    /// Puts a `{` where the row's space stands, to keep the table readable.
    fileprivate func replacingSpace() -> String { String(map { $0 == " " ? "{" : $0 }) }
}

/// A small deterministic generator for the no-crash sweep.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
