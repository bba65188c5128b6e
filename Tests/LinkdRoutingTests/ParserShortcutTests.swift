import Foundation
import Testing

@testable import LinkdRouting

/// The parser's shortcuts, each against the long way round: reading a plain link's layout straight off its bytes,
/// reading an already-serialised link in place instead of writing its serialisation, testing sixteen bytes at
/// once instead of one, naming schemes without a table.
@Suite struct ParserShortcutTests {
    /// Every input the other suites parse, and links with each kind of byte at every offset of a block.
    static let corpus: [String] =
        WPTConformanceTests.cases.map(\.input) + LinkURLTests.accepted.map(\.input)
        + LinkURLTests.refused.map(\.input) + placedBytes.map(\.link) + plainLinks + nearMisses

    /// A link of `z`s with `replacement` put at each of 41 offsets of its path, query or fragment (every offset
    /// within a block of sixteen, more than twice).
    static let placedBytes: [(link: String, offset: Int, replacement: String)] = {
        let replacements = [
            " ", "\u{7F}", "\u{01}", "\\", "\"", "`", "<", ">", "{", "}", "^", "'", "#", "?", "%", "&", "é", "|", "~",
            "!",
        ]
        var links: [(String, Int, String)] = []
        for prefix in ["myapp://reset#", "https://h.example/p?", "https://h.example/"] {
            for offset in prefix.utf8.count...(prefix.utf8.count + 40) {
                for replacement in replacements {
                    var bytes = Array((prefix + String(repeating: "z", count: 64)).utf8)
                    bytes.replaceSubrange(offset..<(offset + 1), with: Array(replacement.utf8))
                    links.append((String(decoding: bytes, as: UTF8.self), offset, replacement))
                }
            }
        }
        return links
    }()

    /// Everything a parse yields, internal layout included.
    static func describe(_ result: Result<LinkURL, RouteError>) -> String {
        switch result {
        case .failure(let error): return "refused \(error)"
        case .success(let link):
            let layout = link.layout
            return [
                link.href, link.protocol, link.hostname, link.portText, link.pathname, link.search, link.hash,
                "\(link.host.map(\.description) ?? "-")", "\(link.hasOpaquePath)", "\(layout.schemeEnd)",
                "\(layout.hostRange)", "\(layout.pathRange)", "\(String(describing: layout.queryRange))",
                "\(String(describing: layout.fragmentRange))", "\(layout.fragmentParametersStart)",
            ].joined(separator: " | ")
        }
    }

    static func parse(_ input: String, tryPlain: Bool, tryVerbatim: Bool) -> Result<LinkURL, RouteError> {
        Array(input.utf8).withUnsafeBufferPointer { bytes in
            Result { () throws(RouteError) in
                try LinkURLParser.parse(bytes, tryPlain: tryPlain, tryVerbatim: tryVerbatim)
            }
        }
    }

    /// Whether `link` reads the same on the plain road and on the written one.
    static func readsTheSameOnEveryRoad(_ link: String) -> Bool {
        let written = describe(parse(link, tryPlain: false, tryVerbatim: false))
        return describe(parse(link, tryPlain: true, tryVerbatim: true)) == written
    }

    @Test func readingInPlaceAgreesWithWritingTheSerialisation() {
        var disagreements: [String] = []
        for input in Self.corpus {
            let plain = Self.describe(Self.parse(input, tryPlain: true, tryVerbatim: true))
            let verbatim = Self.describe(Self.parse(input, tryPlain: false, tryVerbatim: true))
            let written = Self.describe(Self.parse(input, tryPlain: false, tryVerbatim: false))
            if plain != written || verbatim != written {
                disagreements.append("\(input)\n  plain: \(plain)\n  in place: \(verbatim)\n  written:  \(written)")
            }
        }
        #expect(Self.corpus.count > 2_000)
        #expect(disagreements == [])
    }

    /// Whether the plain reading takes `input` (rather than leaving it to the general road).
    static func readsPlainly(_ input: String) throws -> Bool {
        try Array(input.utf8).withUnsafeBufferPointer { bytes in
            let scan = try InputScan(bytes)
            return !scan.needsEncoding && PlainLink.layout(bytes, scan) != nil
        }
    }

    /// Whether the plain reading takes `input` up to the end of its path, its query or fragment holding bytes to
    /// encode.
    static func readsPlainlyEncodingTheTail(_ input: String) throws -> Bool {
        try Array(input.utf8).withUnsafeBufferPointer { bytes in
            let scan = try InputScan(bytes)
            let pathEnd = scan.firstQuestion ?? scan.firstHash ?? bytes.count
            return scan.needsEncoding && scan.firstToEncode > pathEnd && PlainLink.read(bytes, scan) != nil
        }
    }

    /// Links the plain reading takes, and near misses it must leave to the general road, which changes them,
    /// refuses them or reads their host as something other than a name (and a segment starting with `.`, which
    /// it leaves to the general road's dot-segment rule).
    static let plainLinks = [
        "com.example.notes://reset#access_token=a.b.c&type=recovery", "https://notes.example.com/reset?token=1",
        "http://localhost:3000/#/#access_token=t", "myapp://cb", "myapp://cb?x", "https://a-b.example:8443/x/y.z/",
        "wss://h.example/", "my+app.v2-x://h9.example/p", "myapp://cb.example", "myapp://callback9",
        "myapp://Cb",  // a custom scheme's host keeps its case
        "https://1.2.3.4/", "http://127.0.0.1:3000/cb",  // IPv4 addresses in their own form
        "http://[::1]:3000/#error=x", "myapp://[2001:db8::ff00:42:8329]/cb", "https://[::]/",  // IPv6, as serialised
        "https://[2001:db8::1]:8443/p?q=1",
    ]
    static let nearMisses = [
        "HTTPS://h.example/", "Myapp://cb", "https://H.example/", "https://xn--nxasmq6b.example/",
        "https://h.example:443/", "https://h.example:0443/", "https://h.example:/", "https://h.example:99999/",
        "https://h.example:1a/", "https://01.2.3.4/", "https://1.2.3.256/", "https://1.2.3/", "https://h.0x1/",
        "https://h.example./", "https://.h.example/",
        "https://h..example/", "https://h.example", "https://h.example/./x", "https://h.example/x/..",
        "https://h.example/%2e/x", "https://h.example/a/.b", "https://u@h.example/", "https://h_x.example/",
        "myapp:///x", "myapp:cb", "myapp:/cb", "https:/h.example/", "javascript://h/",
        "myapp://cb/../x", "1ab://cb", "1app://cb.example/x", "-app://cb.example/x", "myapp://cb.example.",
        "https://h.example.1/", "myapp://cb..example/",
        // The same misses in hosts the plain reading tests sixteen bytes at a time, on either side of a block's end.
        "https://h..example.com/reset?token=abc", "https://.h.example.com/reset?token=abc",
        "https://abcdefghijklmno..example.com/reset", "https://abcdefghijklmn..o.example.com/reset",
        "https://host.example.1/reset?token=abc", "https://a.b.c.host.example.12/reset?token=abc",
        "https://h.example.com./reset?token=abc", "myapp://cb..example.com/reset?token=abc",
        "https://a.b.c.d.xn--nxasmq6b/reset?t=1", "https://abcdefghijklmnop.xn--nxasmq6b/reset",
        "https://Notes.Example.com/reset?token=abc", "https://notes.example.com/reset/./x?token=abc",
        "HTTPS://notes.example.com/reset?token=abc", "com.Example.App://reset#access_token=abc",
        "com.example_app://reset#access_token=abc",
        // IPv6 hosts written otherwise than the serialisation writes them, or not followed by the authority's end.
        "https://[::1]", "https://[0:0:0:0:0:0:0:1]/", "https://[::A]/", "https://[::ffff:1.2.3.4]/", "https://[::1]x/",
        "https://[::1", "https://[::1]]/", "https://[::1]:443/", "https://[::1]:0443/", "https://[]/", "https://[:1]/",
        "https://[1::2::3]/", "https://[::1]@h/", "myapp://[::1]x", "myapp://[x]/", "https://[0::1]/",
        "https://[1::2:0:0:0:3]/", "https://[::1]:/", "https://[::1]:99999/",
    ]

    @Test func thePlainReadingTakesOnlyLinksTheGeneralRoadLeavesAsTheyAre() throws {
        for link in Self.plainLinks {
            #expect(try Self.readsPlainly(link), "\(link)")
            #expect(try LinkURL(parsing: link).href == link, "\(link)")
        }
        for link in Self.nearMisses {
            #expect((try? Self.readsPlainly(link)) != true, "\(link)")
            let plain = Self.describe(Self.parse(link, tryPlain: true, tryVerbatim: true))
            let written = Self.describe(Self.parse(link, tryPlain: false, tryVerbatim: false))
            #expect(plain == written, "\(link)")
        }
    }

    /// 6,000 links put together from pieces on either side of each rule of the plain reading (scheme case and
    /// characters, `//`, labels, `xn--`, numbers, ports, dot segments, `?` and `#`), the same on every road.
    @Test func assembledLinksReadTheSameOnEveryRoad() {
        // Plain pieces come more often, so that a few hundred links are plain and the rest miss by one rule or more.
        let schemes = ["https", "myapp", "https", "myapp", "http", "ws", "a+b.c-d", "HTTPS", "javascript", "Myapp"]
        let separators = ["://", "://", "://", "://", "://", ":/", ":", ":///"]
        let labels = [
            "a", "h9", "example", "com", "a-b", "a", "h9", "example", "xn--p1ai", "xn--", "xn--a-", "xn-a", "0x1", "12",
            "B", "", "-a", "a_b", "%41", "x@y",
        ]
        let ports = ["", "", "", "", "", "", ":8080", ":", ":0", ":80", ":443", ":0443", ":65535", ":65536", ":99999x"]
        let segments = ["", "a", "reset", "a.", "a=b", "a", "reset", ".", "..", "%2e", ".a", "%41"]
        let tails = [
            "", "?", "?a=1&b", "#", "#x=1", "?q#f", "#/#t=1", "?a#b#c", "?%41=%42",
            // Bytes to encode after the path: the plain reading takes those links too, and encodes their tail.
            "?a=\u{E9}<b>", "#x=\"1\"`", "#/\u{E9}#t=<1>", "?'^{}#\u{1F600}", "?%41=\u{E9}#%C3",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func pick(_ options: [String]) -> String {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return options[Int(state % UInt64(options.count))]
        }
        var disagreements: [String] = []
        var plain = 0
        var encodingTheTail = 0
        for _ in 0..<6_000 {
            let host = (0..<(1 + Int(state % 3))).map { _ in pick(labels) }.joined(separator: ".")
            let path = (0..<Int(state % 3)).map { _ in "/" + pick(segments) }.joined()
            let link = pick(schemes) + pick(separators) + host + pick(ports) + path + pick(tails)
            if (try? Self.readsPlainly(link)) == true { plain += 1 }
            if (try? Self.readsPlainlyEncodingTheTail(link)) == true { encodingTheTail += 1 }
            if !Self.readsTheSameOnEveryRoad(link) { disagreements.append(link) }
        }
        #expect(disagreements == [])
        // The plain reading is really taken, not only refused, both ways.
        #expect(plain > 120)
        #expect(encodingTheTail > 120)
    }

    /// A rule of a scheme or a host, broken or kept after every length from 1 to 40 of letters, reads the same on
    /// every road.
    @Test func schemesAndHostsReadTheSameWhateverTheirLength() {
        let hostEndings = [
            "", ".b", "..b", ".xn--b", "xn--b", "-x", ".x-n", ".12", ".b.", "_x", "A", ":8080", ":", "?q=1", "#f",
            ".0x1",
        ]
        let schemeEndings = ["", "+v2", ".x", "-y", "_z", "A", "9", ":"]
        var disagreements: [String] = []
        var plain = 0
        var links: [String] = []
        for length in 1...40 {
            let run = String(repeating: "a", count: length)
            for ending in hostEndings {
                for scheme in ["https", "myapp"] { links.append("\(scheme)://\(run)\(ending)/reset/path?x=1#y") }
                links.append("https://\(run)\(ending)")  // the host ends the link
            }
            for ending in schemeEndings { links.append("c\(run)\(ending)://host.example/reset/path?x=1#y") }
        }
        for link in links {
            if (try? Self.readsPlainly(link)) == true { plain += 1 }
            if !Self.readsTheSameOnEveryRoad(link) { disagreements.append(link) }
        }
        #expect(disagreements == [])
        #expect(plain > 500)
    }

    /// 4,000 hosts of up to seven labels, each up to fourteen bytes of letters in either case, digits and hyphens
    /// (some empty, some `xn--`), so that every kind of byte and every label boundary falls at every place of the
    /// sixteen-byte blocks the plain reading tests at once; the same on every road.
    @Test func hostsOfManyLabelsReadTheSameOnEveryRoad() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        let characters = Array("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz0123456789ABCXYZ-")
        let schemes = ["https", "myapp", "com.example.app", "HTTPS", "My+App"]
        let endings = ["/reset?token=1#x", "", ":8443/p", ":443/", "?q=1", "#f", "./p", "_/p", "%41/p"]
        var disagreements: [String] = []
        var plain = 0
        var plainCapitals = 0
        for _ in 0..<4_000 {
            let labels = (0..<(1 + next(7))).map { _ in
                let label = String((0..<next(15)).map { _ in characters[next(characters.count)] })
                return next(12) == 0 ? "xn--" + label : label
            }
            let host = labels.joined(separator: ".")
            let link = schemes[next(schemes.count)] + "://" + host + endings[next(endings.count)]
            if (try? Self.readsPlainly(link)) == true {
                plain += 1
                if host.contains(where: \.isUppercase) { plainCapitals += 1 }
            }
            if !Self.readsTheSameOnEveryRoad(link) { disagreements.append(link) }
        }
        #expect(disagreements == [])
        // Taken, and not only for hosts in lower case (a custom scheme's host keeps its capitals).
        #expect(plain > 400)
        #expect(plainCapitals > 100)
    }

    /// 3,000 IPv6 hosts, a third as the serialisation writes them and the rest of random pieces (zero runs, hex
    /// digits in either case, leading zeros, IPv4 tails, too many or too few pieces), followed by each way an
    /// authority may go on or be broken; the same on every road, and the plain road takes those written as their
    /// serialisation.
    @Test func ipv6HostsReadTheSameOnEveryRoad() {
        var random = SplitMix64(seed: 0x5851_F42D_4C95_7F2D)
        func next(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
        let pieces = ["0", "1", "ff", "db8", "2001", "0db8", "FF", "abcd", "", "", "1.2.3.4", "10000", "g"]
        let serialised = ["::1", "::", "2001:db8::1", "2001:db8::ff00:42:8329", "fe80::1:2", "1:2:3:4:5:6:7:8"]
        let schemes = ["https", "myapp", "http", "HTTPS"]
        let endings = ["/", "", ":3000/#e=1", ":443/", ":0443/", ":/", "?q=1", "#f", "x/", "]/", "@h/", ":99999/"]
        var disagreements: [String] = []
        var plain = 0
        for _ in 0..<3_000 {
            let address =
                next(3) == 0
                ? serialised[next(serialised.count)]
                : (0..<(2 + next(8))).map { _ in pieces[next(pieces.count)] }.joined(separator: ":")
            let link = schemes[next(schemes.count)] + "://[" + address + "]" + endings[next(endings.count)]
            if (try? Self.readsPlainly(link)) == true { plain += 1 }
            if !Self.readsTheSameOnEveryRoad(link) { disagreements.append(link) }
        }
        #expect(disagreements == [])
        #expect(plain > 100)
    }

    @Test func aSerialisedLinkKeepsItsInputStringAndOthersAreWritten() throws {
        func sharesStorage(_ input: String) throws -> Bool {
            let link = try LinkURL(parsing: input)
            let inputBase = input.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
            let hrefBase = link.href.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
            return inputBase != nil && inputBase == hrefBase
        }
        // Longer than 15 bytes, so that the strings live on the heap and have an address to compare.
        #expect(try sharesStorage("https://app.example.com/reset?token=abc&tokenId=def"))
        #expect(try sharesStorage("com.example.notes://reset#access_token=a.b.c&type=recovery"))
        #expect(try !sharesStorage("HTTPS://app.example.com/reset?token=abc&tokenId=def"))
        #expect(try !sharesStorage("https://app.example.com:443/reset?token=abc&tokenId=def"))
        #expect(try !sharesStorage("https://app.example.com/reset?token=a\"b&tokenId=def"))
    }

    @Test func everyByteOfEveryBlockIsLookedAt() throws {
        for (link, offset, replacement) in Self.placedBytes {
            let result = Result { () throws(RouteError) in try LinkURL(parsing: link) }
            let part: LinkPart = link.hasPrefix("myapp") ? .fragment : link.contains("?") ? .query : .path
            switch replacement {
            case " ", "\u{7F}", "\u{01}", "\\":
                #expect(result.failure?.refusal?.reason == .invalidCharacter, "\(link)")
                #expect(result.failure?.refusal?.part == part, "\(link)")
            case "%":
                #expect(result.failure?.refusal?.reason == .badPercentEncoding, "\(link)")
            case "\"", "`", "<", ">", "{", "}", "^", "'", "é":
                // Written percent-encoded where the WHATWG set of the part says so, as-is elsewhere.
                let encodedIn: [LinkPart: Set<String>] = [
                    .fragment: ["\"", "`", "<", ">", "é"], .query: ["\"", "<", ">", "'", "é"],
                    .path: ["\"", "`", "<", ">", "{", "}", "^", "é"],
                ]
                let href = try result.get().href
                let encoded = replacement.utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
                let expected = encodedIn[part, default: []].contains(replacement) ? encoded : replacement
                #expect(href == link.replacingOccurrences(of: replacement, with: expected), "\(link)")
            case "#" where part != .fragment:
                let parsed = try result.get()
                #expect(parsed.hash == "#" + String(link.utf8.dropFirst(offset + 1))!, "\(link)")
            case "?" where part == .path:
                let parsed = try result.get()
                #expect(parsed.search == "?" + String(link.utf8.dropFirst(offset + 1))!, "\(link)")
            case "|", "~", "!":
                // Picked out by the block test next to bytes that matter, and read as they are.
                #expect(try result.get().href == link, "\(link)")
            default:
                #expect(throws: Never.self) { try result.get() }
            }
        }
    }

    @Test func namesSchemesAsTheListsDo() {
        func kind(_ scheme: String) -> SchemeKind {
            Array(scheme.utf8).withUnsafeBufferPointer { SchemeKind($0) }
        }
        for scheme in LinkURL.blockedSchemes { #expect(kind(scheme) == .blocked, "\(scheme)") }
        for (scheme, port) in LinkURL.specialSchemes { #expect(kind(scheme) == .special(defaultPort: port)) }
        for scheme in ["x", "wz", "htto", "httpss", "javascrip", "javascripx", "mailtp", "vbscripts", "myapp", "fil"] {
            #expect(kind(scheme) == .other, "\(scheme)")
        }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
