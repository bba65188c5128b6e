import LinkdRouting
import Testing

@Suite struct LinkParametersTests {
    private func parameters(_ text: String) throws -> LinkParameters {
        try LinkURL(parsing: text).parameters()
    }

    private func refusal(_ text: String) -> LinkRefusal? {
        do {
            _ = try LinkURL(parsing: text).parameters()
            return nil
        } catch {
            return error.refusal
        }
    }

    @Test func decodesQueryAsFormURLEncoded() throws {
        let found = try parameters("https://h.example/reset?token=a%2Bb&next=%2Fhome+page&tokenId=x=y")
        #expect(found["token"] == "a+b")
        #expect(found["next"] == "/home page")
        #expect(found["tokenId"] == "x=y")
        #expect(found["absent"] == nil)
    }

    @Test func findsEverySeparatorWhereverItFallsInABlock() throws {
        // `&`, `=` and `%` at every offset of a pair of blocks of sixteen (read together), of the single block
        // and the partial one that end a part, and in a part shorter than one.
        for length in 0...72 {
            let value = String(repeating: "z", count: length)
            for prefix in ["myapp://cb#", "https://h.example/?", "myapp://cb?q=1#x=2&"] {
                let found = try parameters(prefix + "a=\(value)&b=\(value)%41=&c&d=e=f&&")
                #expect(found["a"] == value, "\(length) \(prefix)")
                #expect(found["b"] == value + "A=", "\(length) \(prefix)")
                #expect(found["c"] == "", "\(length) \(prefix)")
                #expect(found["d"] == "e=f", "\(length) \(prefix)")
                #expect(found.count == (prefix.contains("x=") ? 6 : 4), "\(length) \(prefix)")
            }
        }
    }

    @Test func readsAQueryThatEndsWithinTheFirstSixteenBytesOfALongerLink() throws {
        // The query's last, partial block is read from the link's first sixteen bytes, which hold the fragment's
        // separators too: only those before the `#` count for the query.
        for fragment in ["x=1&y=2aaaaaa", "&=&=&=&=&=&=", "x%41=1&y=2&z=%42%43"] {
            let found = try parameters("a://b?c=d&e#" + fragment)
            #expect(found.names.prefix(2) == ["c", "e"], "\(fragment)")
            #expect(found["c"] == "d" && found["e"] == "", "\(fragment)")
            #expect(found.part(of: "c") == .query && found.part(of: "e") == .query, "\(fragment)")
        }
        #expect(try parameters("a://b?c=d&e#x=1&y=2aaaaaa")["y"] == "2aaaaaa")
    }

    @Test func splitsBeforeDecoding() throws {
        let found = try parameters("myapp://cb?a=%26b%3Dc&d=%2520")
        #expect(found["a"] == "&b=c")
        #expect(found["d"] == "%20")
        #expect(found.count == 2)
    }

    @Test func readsFragmentParametersAfterTheLastNumberSign() throws {
        let found = try parameters("http://localhost:3000/#/#access_token=a.b.c&type=recovery")
        #expect(found["access_token"] == "a.b.c")
        #expect(found["type"] == "recovery")
        #expect(found.contains("/") == false)
    }

    @Test func keepsQueryBeforeFragmentAndRecordsEachPart() throws {
        let found = try parameters("myapp://reset?code=1#access_token=t")
        #expect(found.map(\.name) == ["code", "access_token"])
        #expect(found.map(\.part) == [.query, .fragment])
    }

    @Test func keepsPresentButEmptyDistinctFromAbsent() throws {
        let found = try parameters("myapp://cb?error&sb=&code=x")
        #expect(found["error"] == "")
        #expect(found["sb"] == "")
        #expect(found.contains("error"))
        #expect(!found.contains("state"))
    }

    @Test func acceptsSameValueTwiceInOneOrBothParts() throws {
        let found = try parameters("myapp://cb?code=x&code=x#code=x")
        #expect(found["code"] == "x")
        #expect(found.count == 1)
    }

    @Test func refusesConflictingValuesNamingTheParameter() {
        #expect(
            refusal("myapp://cb?code=x#code=y")
                == LinkRefusal(.conflictingParameter, part: .fragment, "conflicting parameter 'code'")
        )
        #expect(
            refusal("myapp://cb?token=a&token=b")
                == LinkRefusal(.conflictingParameter, part: .query, "conflicting parameter 'token'")
        )
        // Encodings that decode to different values conflict too.
        #expect(refusal("myapp://cb?t=a+b&t=a%2Bb")?.reason == .conflictingParameter)
    }

    @Test func comparesLongValuesToTheirLastByte() throws {
        // Values compared eight bytes at a time, then the rest one by one: a difference in any byte is seen.
        let token = String(repeating: "abcdefgh", count: 5) + "xyz"
        #expect(try parameters("myapp://cb?token=\(token)#token=\(token)")["token"] == token)
        for offset in [0, 7, 8, 39, 40, 42] {
            var bytes = Array(token.utf8)
            bytes[offset] = UInt8(ascii: "Q")
            let other = String(decoding: bytes, as: UTF8.self)
            #expect(refusal("myapp://cb?token=\(token)#token=\(other)")?.reason == .conflictingParameter, "\(offset)")
        }
    }

    @Test func comparesNamesAsTheyDecode() throws {
        // A name's raw bytes may differ from another's and decode alike: `%61` and `a`, `a+b` and `a%20b`.
        #expect(refusal("myapp://cb?a=1&%61=2")?.reason == .conflictingParameter)
        #expect(refusal("myapp://cb?%61=1&a=2")?.reason == .conflictingParameter)
        #expect(refusal("myapp://cb?a+b=1#a%20b=2")?.reason == .conflictingParameter)
        #expect(try parameters("myapp://cb?a=1&%61=1#%61=%31").count == 1)
        // Names alike in length and in their first and last bytes are told apart, and compared when repeated.
        let found = try parameters("myapp://cb?axb=1&ayb=2&axb=1")
        #expect(found.names == ["axb", "ayb"] && found["axb"] == "1" && found["ayb"] == "2")
        #expect(refusal("myapp://cb?axb=1&ayb=2#ayb=3")?.reason == .conflictingParameter)
    }

    @Test func aRefusalOfTheParametersIsNotARefusalOfTheLink() throws {
        // The parser splits the parameters, but only asking for them refuses the link.
        for text in ["myapp://cb?a=1&a=2", "myapp://cb#t=%FF", "myapp://cb?" + String(repeating: "&", count: 64)] {
            let link = try LinkURL(parsing: text)
            #expect(link.href == text)
            #expect(throws: RouteError.self) { try link.parameters() }
        }
    }

    @Test func countsEveryPieceTowardsTheLimit() throws {
        let sixtyFour = (0..<32).map { "q\($0)=1" }.joined(separator: "&")
        let fragment = (0..<32).map { "f\($0)=1" }.joined(separator: "&")
        #expect(try parameters("myapp://cb?\(sixtyFour)#\(fragment)").count == 64)
        #expect(refusal("myapp://cb?\(sixtyFour)&#\(fragment)")?.reason == .tooManyParameters)
        #expect(refusal("myapp://cb?" + String(repeating: "&", count: 64))?.reason == .tooManyParameters)
        #expect(refusal("myapp://cb?" + String(repeating: "&", count: 64))?.part == .parameters)
    }

    @Test func readsParametersBeyondTheEighthAsTheFirstEight() throws {
        // Eight parameters are kept inline, the rest in a list: both halves are read, compared and refused alike.
        let pieces = (0..<20).map { "p\($0)=v\($0)%2B" }
        let found = try parameters(
            "myapp://cb?\(pieces[..<10].joined(separator: "&"))#\(pieces[10...].joined(separator: "&"))"
        )
        #expect(found.names == (0..<20).map { "p\($0)" })
        #expect((0..<20).allSatisfy { found["p\($0)"] == "v\($0)+" })
        #expect(found.part(of: "p9") == .query && found.part(of: "p10") == .fragment)
        #expect(try parameters("myapp://cb?\(pieces.joined(separator: "&"))&p2=v2%2b&p15=v15%2B").count == 20)
        #expect(
            refusal("myapp://cb?\(pieces.joined(separator: "&"))&p%31%35=v15")
                == LinkRefusal(.conflictingParameter, part: .query, "conflicting parameter 'p15'")
        )
        #expect(refusal("myapp://cb?\(pieces.joined(separator: "&"))&p3=x")?.reason == .conflictingParameter)
    }

    @Test func readsParametersFarIntoTheLongestSerialisation() throws {
        // 12,000 quotes in the path are written as `%22`: the query starts 36,000 bytes into `href`.
        let link = try LinkURL(parsing: "myapp://cb/" + String(repeating: "\"", count: 12_000) + "?a=1&b=%41#c=x+y")
        let found = try link.parameters()
        #expect(link.href.utf8.count > 36_000)
        #expect(found.parameters.map { "\($0.name)=\($0.value)" } == ["a=1", "b=A", "c=x y"])
    }

    /// The parameter rule written out plainly, one piece at a time: the reference the table is compared with.
    private static func reference(query: String?, fragment: String?) -> String {
        func decode(_ text: Substring) -> String? {
            var bytes: [UInt8] = []
            var rest = Array(text.utf8)[...]
            while let byte = rest.popFirst() {
                if byte == UInt8(ascii: "%"), rest.count >= 2,
                    let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16)
                {
                    bytes.append(value)
                    rest = rest.dropFirst(2)
                } else {
                    bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                }
            }
            return String(validating: bytes, as: UTF8.self)
        }
        var found: [(name: String, value: String)] = []
        var failure: LinkRefusal?
        var pieceCount = 0
        let parts: [(String?, LinkPart)] = [
            (query, .query),
            (fragment.map { String($0.split(separator: "#", omittingEmptySubsequences: false).last ?? "") }, .fragment),
        ]
        for case (let text?, let part) in parts where !text.isEmpty {
            for piece in text.split(separator: "&", omittingEmptySubsequences: false) {
                pieceCount += 1
                guard failure == nil, pieceCount <= LinkParameters.maximumCount, !piece.isEmpty else { continue }
                let name = piece.prefix { $0 != "=" }
                guard !name.isEmpty else { continue }
                let value = piece.dropFirst(name.count + 1)
                guard let name = decode(name), let value = decode(value) else {
                    failure = LinkRefusal(
                        .invalidUTF8,
                        part: part,
                        "a parameter in the \(part.rawValue) does not decode to UTF-8"
                    )
                    continue
                }
                if let existing = found.first(where: { $0.name == name }) {
                    if existing.value != value {
                        failure = LinkRefusal(.conflictingParameter, part: part, "conflicting parameter '\(name)'")
                    }
                } else {
                    found.append((name, value))
                }
            }
        }
        if pieceCount > LinkParameters.maximumCount {
            return Self.outcome(
                LinkRefusal(.tooManyParameters, part: .parameters, "the link has more than 64 parameters")
            )
        }
        if let failure { return Self.outcome(failure) }
        return found.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
    }

    private static func outcome(_ refusal: LinkRefusal) -> String {
        "refused \(refusal.reason) \(refusal.part) \(refusal.message)"
    }

    @Test func agreesWithTheRuleWrittenOutPlainlyOnAssembledLinks() throws {
        let pieces = [
            "a", "b", "code", "=", "=", "&", "&", "&a=", "&b=", "=1", "=2", "+", "x", "%41", "%2B", "%26", "%3D",
            "%C3%A9", "~", "%FF", "A", "%7E", "%9F", "%c3%a9", "%e9",
            // Characters the serialisation encodes itself: a link with no `%` of its own has only those escapes.
            "\u{E9}", "\u{1F600}", "|", "\"", "<b>", "^",
        ]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func text(_ length: Int) -> String {
            (0..<length).map { _ in
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return pieces[Int(state % UInt64(pieces.count))]
            }.joined()
        }
        var outcomes: Set<String> = []
        for round in 0..<3_000 {
            let query = round % 3 == 0 ? nil : text(Int(state % 12))
            // Every eleventh link carries 50 to 69 more pieces, so that some cross the limit of 64.
            let many = round % 11 == 0 ? String(repeating: "&z=1", count: 50 + Int(state % 20)) : ""
            let fragment = round % 5 == 0 ? nil : (round % 7 == 0 ? "/#" : "") + text(Int(state % 40)) + many
            let link = try LinkURL(
                parsing: "myapp://cb" + (query.map { "?" + $0 } ?? "") + (fragment.map { "#" + $0 } ?? "")
            )
            let actual: String
            do {
                actual = try link.parameters().parameters.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            } catch {
                actual = error.refusal.map(Self.outcome) ?? "\(error)"
            }
            let expected = Self.reference(query: link.query, fragment: link.fragment)
            #expect(actual == expected, "\(link.href)")
            outcomes.insert(expected.hasPrefix("refused") ? String(expected.split(separator: " ")[1]) : "read")
        }
        // Parameters read, and each of the three refusals, all met.
        #expect(outcomes == ["read", "invalidUTF8", "conflictingParameter", "tooManyParameters"])
    }

    @Test func refusesValuesThatAreNotUTF8() {
        #expect(refusal("myapp://cb?token=%FF%FE")?.reason == .invalidUTF8)
        #expect(refusal("myapp://cb#token=%C3")?.part == .fragment)
        // Escapes the serialisation wrote beside one of the link's own: the link's own is still checked.
        #expect(refusal("https://example.com/?next=\u{FC}|\"x\"&token=%FF")?.reason == .invalidUTF8)
        #expect(refusal("https://example.com/?next=%C3&n\u{E9}=1")?.reason == .invalidUTF8)
    }

    @Test func readsTheFragmentsParametersWhereTheyStandOnceEncoded() throws {
        // The parameters follow the last `#`: encoding what comes before or after it moves them in `href`.
        let expired = try parameters(
            "myapp://cb#error=access_denied&error_description=Lien+expir\u{E9}&error_code=otp_expired"
        )
        #expect(expired["error"] == "access_denied")
        #expect(expired["error_description"] == "Lien expir\u{E9}")
        #expect(expired["error_code"] == "otp_expired")
        let routed = try parameters("https://example.com/#/r\u{E9}set/<b>#n\u{E9}=1&code=<c>")
        #expect(routed.parameters.map(\.name) == ["n\u{E9}", "code"])
        #expect(routed["code"] == "<c>")
    }

    @Test func readsTheEscapesTheSerialisationWrote() throws {
        let link = try LinkURL(
            parsing: "https://example.com/?next=/\u{FC}n\u{EF}code|\"page\"<b>&n\u{E9}=\u{1F600}#a=^"
        )
        #expect(link.query == "next=/%C3%BCn%C3%AFcode|%22page%22%3Cb%3E&n%C3%A9=%F0%9F%98%80")
        let parameters = try link.parameters()
        #expect(parameters["next"] == "/\u{FC}n\u{EF}code|\"page\"<b>")
        #expect(parameters["n\u{E9}"] == "\u{1F600}")
        #expect(parameters["a"] == "^")
    }

    @Test func decodesUTF8Values() throws {
        #expect(try parameters("myapp://cb?name=%C3%A9t%C3%A9")["name"] == "\u{E9}t\u{E9}")
        #expect(try parameters("myapp://cb?name=\u{E9}")["name"] == "\u{E9}")
    }
}
