import LinkdFormats
import LinkdRouting
import LinkdTesting
import Testing

@Suite struct RealLinksTests {
    @Test func thereAreAtLeastSixtyRealLinksEachWithASource() {
        #expect(RealLinks.rows.count >= 60)
        #expect(RealLinks.rows.allSatisfy { !$0.source.isEmpty })
    }

    @Test(arguments: RealLinks.rows)
    func readsTheRealLinkAsLinkdMustRead(_ row: RealLinks.Row) throws {
        switch row.outcome {
        case .route(let id, let fields):
            try LinkExpectation.route(row.link, is: id, fields: fields)
        case .refused(let reason):
            try LinkExpectation.refusal(row.link, reason)
        case .unmatched:
            #expect {
                try AuthLinks.route(row.link)
            } throws: { error in
                if case .unmatched = error as? RouteError { return true }
                return false
            }
        }
    }

    @Test func readsTheClaimsOfTheRealTokens() throws {
        let future = try LinkExpectation.route(RealLinks.swiftRows[14].link, is: "supabase.recovery")
        #expect(future.claims?.email == "hi@binaryscraping.co")
        #expect(future.claims?.maskedEmail == "h***@binaryscraping.co")
        #expect(future.claims?.expiresAt == 4_852_163_593)
        let expired = try LinkExpectation.route(RealLinks.swiftRows[15].link, is: "supabase.recovery")
        #expect(expired.claims?.isExpired() == true)
        let es256 = try LinkExpectation.route(RealLinks.authJSRows[2].link, is: "supabase.session")
        #expect(es256.claims?.subject == "690112e6-858b-40c7-80e6-96db697192b5")
        #expect(es256.claims?.methods == ["anonymous"])
        #expect(es256.claims?.sessionID == "4c6b2894-43b4-46c4-bd2f-35c59ec44fef")
    }
}
