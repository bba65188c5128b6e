import Foundation
import Testing

@testable import LinkdRouting

/// The parser's shortcuts, each against the long way round: reading an already-serialised link in place instead
/// of writing its serialisation, testing sixteen bytes at once instead of one, naming schemes without a table.
@Suite struct ParserShortcutTests {
    /// Every input the other suites parse, and links with each kind of byte at every offset of a block.
    static let corpus: [String] =
        WPTConformanceTests.cases.map(\.input) + LinkURLTests.accepted.map(\.input)
        + LinkURLTests.refused.map(\.input) + placedBytes.map(\.link)

    /// A link of `z`s with `replacement` put at each of 41 offsets of its path, query or fragment (every offset
    /// within a block of sixteen, more than twice).
    static let placedBytes: [(link: String, offset: Int, replacement: String)] = {
        let replacements = [" ", "\u{7F}", "\u{01}", "\\", "\"", "`", "<", "{", "}", "^", "'", "#", "?", "%", "&", "é"]
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

    static func parse(_ input: String, tryVerbatim: Bool) -> Result<LinkURL, RouteError> {
        Array(input.utf8).withUnsafeBufferPointer { bytes in
            Result { () throws(RouteError) in try LinkURLParser.parse(bytes, tryVerbatim: tryVerbatim) }
        }
    }

    @Test func readingInPlaceAgreesWithWritingTheSerialisation() {
        var disagreements: [String] = []
        for input in Self.corpus {
            let quick = Self.describe(Self.parse(input, tryVerbatim: true))
            let long = Self.describe(Self.parse(input, tryVerbatim: false))
            if quick != long { disagreements.append("\(input)\n  in place: \(quick)\n  written:  \(long)") }
        }
        #expect(Self.corpus.count > 2_000)
        #expect(disagreements == [])
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
            case "\"", "`", "<", "{", "}", "^", "'", "é":
                // Written percent-encoded where the WHATWG set of the part says so, as-is elsewhere.
                let encodedIn: [LinkPart: Set<String>] = [
                    .fragment: ["\"", "`", "<", "é"], .query: ["\"", "<", "'", "é"],
                    .path: ["\"", "`", "<", "{", "}", "^", "é"],
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
