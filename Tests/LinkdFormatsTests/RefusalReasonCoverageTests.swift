import LinkdFormats
import LinkdRouting
import LinkdTesting
import Testing

/// One link per refusal reason, read the way `linkd route` reads it (strict parse, then the
/// built-in formats, or a family for `format_mismatch`).
@Suite struct RefusalReasonCoverageTests {
    static let samples: [RefusalReason: (link: String, format: AuthLinkFormat?)] = [
        .tooLong: ("myapp://r?" + String(repeating: "a", count: 16_380), nil),
        .empty: ("", nil),
        .surroundingWhitespace: ("myapp://reset ", nil),
        .invalidCharacter: ("myapp://re\tset", nil),
        .noScheme: ("reset?code=x", nil),
        .blockedScheme: ("javascript:alert(1)", nil),
        .badPercentEncoding: ("myapp://reset?code=%G1", nil),
        .badAuthority: ("https:/app.example.com/reset", nil),
        .userinfo: ("https://app.example.com@evil.example/reset", nil),
        .nonASCIIHost: ("https://\u{430}pp.example.com/reset", nil),
        .badHost: ("https://app%2eexample.com/reset", nil),
        .badPort: ("https://app.example.com:65536/reset", nil),
        .dotSegment: ("https://app.example.com/a/%2E%2E/reset", nil),
        .tooManyParameters: ("myapp://reset?" + (0..<65).map { "p\($0)=1" }.joined(separator: "&"), nil),
        .conflictingParameter: ("myapp://reset?code=a#code=b", nil),
        .missingField: ("myapp://reset#access_token=a.b.c", nil),
        .emptyField: ("myapp://reset?code=", nil),
        .malformedSecret: ("myapp://reset?code=a%2Bb", nil),
        .badValue: ("myapp://reset#access_token=a.b.c&refresh_token=r&expires_in=soon", nil),
        .formatMismatch: ("myapp://reset?token=t&tokenId=i", .supabase),
    ]

    @Test func everyReasonButInvalidUTF8HasASample() {
        let missing = RefusalReason.allCases.filter { Self.samples[$0] == nil && $0 != .invalidUTF8 }
        #expect(missing == [])
    }

    @Test(arguments: Array(samples.keys.sorted { $0.rawValue < $1.rawValue }))
    func eachReasonIsProducedByItsSample(_ reason: RefusalReason) throws {
        let sample = try #require(Self.samples[reason])
        try LinkExpectation.refusal(sample.link, reason, format: sample.format)
    }

    @Test func invalidUTF8ComesFromBytesOrAParameter() throws {
        #expect(throws: RouteError.refused(.invalidUTF8, part: .input, "the link is not valid UTF-8")) {
            try LinkURL(parsing: [0x6D, 0x3A, 0xFF] as [UInt8])
        }
        try LinkExpectation.refusal("myapp://reset?code=%FF", .invalidUTF8, part: .query)
    }
}
