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

    @Test func findsEverySeparatorWhereverItFallsInABlockOfSixteen() throws {
        // `&`, `=` and `%` at every offset of a block, in the last partial block, and in a part shorter than one.
        for length in 0...40 {
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

    @Test func refusesValuesThatAreNotUTF8() {
        #expect(refusal("myapp://cb?token=%FF%FE")?.reason == .invalidUTF8)
        #expect(refusal("myapp://cb#token=%C3")?.part == .fragment)
    }

    @Test func decodesUTF8Values() throws {
        #expect(try parameters("myapp://cb?name=%C3%A9t%C3%A9")["name"] == "\u{E9}t\u{E9}")
        #expect(try parameters("myapp://cb?name=\u{E9}")["name"] == "\u{E9}")
    }
}
