import Foundation
import LinkdFormats
import LinkdRouting
import LinkdTesting
import Testing

@Suite struct LinkFixturesTests {
    @Test func everyFixtureRoutesAsItsBackendMeansIt() throws {
        try LinkExpectation.route(LinkFixtures.supabaseSession(), is: "supabase.recovery")
        try LinkExpectation.route(LinkFixtures.supabaseSession(type: "magiclink"), is: "supabase.session")
        try LinkExpectation.route(
            LinkFixtures.supabasePKCE(code: "c0de", next: "/a b"),
            is: "supabase.pkce",
            fields: ["code": "c0de", "next": "/a b"]
        )
        try LinkExpectation.route(
            LinkFixtures.supabaseTokenHash(tokenHash: "pkce_ab12"),
            is: "supabase.otp",
            fields: ["token_hash": "pkce_ab12"]
        )
        try LinkExpectation.route(
            LinkFixtures.supabaseVerify(token: "ab12"),
            is: "supabase.otp",
            fields: ["token_hash": "ab12"]
        )
        try LinkExpectation.route(
            LinkFixtures.supabaseError(),
            is: "supabase.error",
            fields: ["error_code": "otp_expired"]
        )
        try LinkExpectation.route(LinkFixtures.supabaseError(pkce: true), is: "supabase.error")
        try LinkExpectation.route(
            LinkFixtures.appServicesReset(token: "t1", tokenID: "i1"),
            is: "appservices.reset",
            fields: ["token": "t1", "tokenId": "i1"]
        )
        try LinkExpectation.route(LinkFixtures.appServicesConfirm(), is: "appservices.confirm")
        try LinkExpectation.route(
            LinkFixtures.firebaseAction(mode: "verifyEmail", lang: "fr"),
            is: "firebase.action",
            fields: ["lang": "fr"]
        )
    }

    @Test func appleAndOAuthCallbacksRouteAsTheirFormatsMeanThem() throws {
        let route = try LinkExpectation.route(
            LinkFixtures.appleCallback(code: "c1.0.ab", state: "s1", firstName: "Ada", lastName: "Lovelace"),
            is: "apple.callback",
            format: .apple,
            fields: ["code": "c1.0.ab", "state": "s1"]
        )
        guard case .appleCallback(let callback) = route else { throw FixtureMismatch() }
        #expect(callback.name == PersonName(firstName: "Ada", lastName: "Lovelace"))
        #expect(callback.claims?.email == "user@example.com")
        let bare = try LinkExpectation.route(LinkFixtures.appleCallback(), is: "apple.callback", format: .apple)
        if case .appleCallback(let callback) = bare { #expect(callback.user == nil && callback.name == nil) }
        try LinkExpectation.route(
            LinkFixtures.appleCancel(state: "s2"),
            is: "oauth.error",
            format: .apple,
            fields: ["error": "user_cancelled_authorize", "state": "s2"]
        )
        try LinkExpectation.route(
            LinkFixtures.oauthCallback(code: "k1", state: "s3"),
            is: "oauth.callback",
            format: .oauth,
            fields: ["code": "k1", "state": "s3"]
        )
        try LinkExpectation.route(
            LinkFixtures.oauthError(description: "The user said no", state: "s4"),
            is: "oauth.error",
            format: .oauth,
            fields: ["error": "access_denied", "error_description": "The user said no", "state": "s4"]
        )
    }

    struct FixtureMismatch: Error {}

    @Test func jwtCarriesTheChosenClaims() throws {
        let token = LinkFixtures.jwt(email: "bob@example.com", expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
        let route = try LinkExpectation.route(LinkFixtures.supabaseSession(accessToken: token), is: "supabase.recovery")
        #expect(route.claims?.email == "bob@example.com")
        #expect(route.claims?.expiresAt == 2_000_000_000)
    }

    @Test func encodesAsGoDoes() {
        #expect(
            LinkFixtures.formEncode([("d", "Email link is invalid"), ("n", "/a&b")])
                == "d=Email+link+is+invalid&n=%2Fa%26b"
        )
        #expect(
            LinkFixtures.supabaseVerify(token: "t", redirectTo: "myapp://reset").hasSuffix("&redirect_to=myapp://reset")
        )
        #expect(
            LinkFixtures.supabaseVerify(token: "t", redirectTo: "https://x.example/?a=b").hasSuffix(
                "redirect_to=https%3A%2F%2Fx.example%2F%3Fa%3Db"
            )
        )
    }
}

@Suite struct LinkExpectationTests {
    private func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as LinkExpectationFailure {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func failsWithMessagesThatSayWhatDiffered() {
        let link = "https://h.example/reset?token=t1&tokenId=i1"
        #expect(failure { try LinkExpectation.route(link, is: "appservices.reset", fields: ["token": "t1"]) } == nil)
        #expect(
            failure { try LinkExpectation.route(link, is: "supabase.pkce") }
                == "expected route 'supabase.pkce', got 'appservices.reset'"
        )
        #expect(
            failure { try LinkExpectation.route(link, is: "appservices.reset", fields: ["token": "t2"]) }
                == "field 'token' of route 'appservices.reset' is a different secret, not 't2'"
        )
        #expect(
            failure { try LinkExpectation.route(link, is: "appservices.reset", fields: ["code": "x"]) }
                == "route 'appservices.reset' has no field 'code'"
        )
        #expect(
            failure { try LinkExpectation.route("https://h.example/reset?token=t1", is: "appservices.reset") }
                == "expected route 'appservices.reset', but the link was refused: missing field 'tokenId'"
        )
    }

    @Test func checksRefusals() {
        #expect(
            failure { try LinkExpectation.refusal("myapp://cb?code=a#code=b", .conflictingParameter, part: .fragment) }
                == nil
        )
        #expect(
            failure { try LinkExpectation.refusal("myapp://cb?code=a", .conflictingParameter) }
                == "expected a 'conflicting_parameter' refusal, got route 'supabase.pkce'"
        )
        #expect(
            failure { try LinkExpectation.refusal("myapp://cb?code=a#code=b", .conflictingParameter, part: .query) }
                == "expected a 'conflicting_parameter' refusal in the query, got 'conflicting_parameter' in the fragment: conflicting parameter 'code'"
        )
    }

    @Test func checksAnAppsOwnRouterBothWays() throws {
        var router = Router<Int>()
        try router.add(
            "myapp://note/{id}",
            build: { match throws(RouteError) in try match.capture("id") },
            print: { RouteValues(captures: ["id": $0]) }
        )
        #expect(failure { try LinkExpectation.route("myapp://note/7", in: router, equals: 7) } == nil)
        #expect(failure { try LinkExpectation.route("myapp://note/7", in: router, equals: 8) } == "expected 8, got 7")
    }
}
