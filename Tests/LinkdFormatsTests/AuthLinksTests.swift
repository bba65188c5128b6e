import Foundation
import LinkdFormats
import LinkdRouting
import LinkdTesting
import Testing

@Suite struct AuthLinksTests {
    static let jwt = LinkFixtures.jwt(email: "alice@example.com")

    struct Row: Sendable, CustomStringConvertible {
        var link: String
        var route: String
        var fields: [String: String]
        var description: String { "\(route): \(link.prefix(80))" }
        init(_ link: String, _ route: String, _ fields: [String: String] = [:]) {
            self.link = link
            self.route = route
            self.fields = fields
        }
    }

    static let rows: [Row] = [
        Row(
            "https://example.com/usermgmt?mode=resetPassword&oobCode=ABC123&apiKey=AIzaSyXXX&lang=fr",
            "firebase.action",
            ["mode": "resetPassword", "oobCode": "ABC123", "apiKey": "AIzaSyXXX", "lang": "fr"]
        ),
        Row(
            "https://x.page.link/?link="
                + "https%3A%2F%2Fexample.com%2F__%2Fauth%2Faction%3Fmode%3DverifyEmail%26oobCode%3DC1%26apiKey%3DK1",
            "firebase.action",
            ["mode": "verifyEmail", "oobCode": "C1", "apiKey": "K1"]
        ),
        Row(
            "https://example.com/a?mode=signIn&oobCode=CODE1&apiKey=KEY#oobCode2=x",
            "firebase.action",
            ["oobCode": "CODE1"]
        ),
        Row(
            "myapp://reset#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb=",
            "supabase.error",
            [
                "error": "access_denied", "error_code": "otp_expired",
                "error_description": "Email link is invalid or has expired",
            ]
        ),
        Row(
            "http://localhost:3000/login#error=unauthorized_client&error_code=401&error_description=Email+link+is+invalid+or+has+expired",
            "supabase.error",
            ["error_code": "401"]
        ),
        // GoTrue's redirect of an Apple cancel: an empty description in the query, none in the fragment.
        Row(
            "myapp://cb?error=user_cancelled_authorize&error_description=#error=user_cancelled_authorize&sb=",
            "supabase.error",
            ["error": "user_cancelled_authorize"]
        ),
        Row(
            "myapp://cb?error_description=Unverified+email",
            "supabase.error",
            ["error_description": "Unverified email"]
        ),
        Row(
            "https://client.example.com/cb?error=access_denied&state=xyz",
            "oauth.error",
            ["error": "access_denied", "state": "xyz"]
        ),
        Row(
            "myapp://reset#error=access_denied&access_token=\(jwt)&refresh_token=r1",
            "oauth.error",
            ["error": "access_denied"]
        ),
        Row(
            "myapp://apple?code=c1.0.abc&id_token=\(jwt)&state=s1",
            "apple.callback",
            ["code": "c1.0.abc", "state": "s1"]
        ),
        Row(
            #"myapp://apple?code=c2&user=%7B%22email%22%3A%22a%40b.c%22%7D"#,
            "apple.callback",
            ["user": #"{"email":"a@b.c"}"#]
        ),
        Row(
            "myapp://reset#access_token=\(jwt)&expires_at=1767225600&expires_in=3600&refresh_token=GGduTeu95GraIXQ56jppkw&sb=&token_type=bearer&type=recovery",
            "supabase.recovery",
            [
                "access_token": jwt, "refresh_token": "GGduTeu95GraIXQ56jppkw", "expires_in": "3600",
                "expires_at": "1767225600", "type": "recovery",
            ]
        ),
        Row(
            "myapp://login#access_token=\(jwt)&refresh_token=abcdefghijkl&type=magiclink",
            "supabase.session",
            ["type": "magiclink"]
        ),
        Row("myapp://login#access_token=\(jwt)&refresh_token=abcdefghijkl&expires_at=", "supabase.session", [:]),
        Row(
            "com.example.app:/oauth2redirect/example-provider?code=abc&state=xyz",
            "oauth.callback",
            ["code": "abc", "state": "xyz"]
        ),
        Row(
            "io.supabase.flutterquickstart://login-callback/?code=3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
            "supabase.pkce",
            ["code": "3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"]
        ),
        Row(
            "https://app.example.com/?code=c0de&next=%2Faccount%2Fupdate-password",
            "supabase.pkce",
            ["next": "/account/update-password"]
        ),
        Row("https://app.example.com/?code=c0de&next=//evil.example", "supabase.pkce", ["code": "c0de"]),
        Row(
            "https://app.example.com/auth/confirm?token_hash=pkce_0a1b2c&type=recovery&next=/path-to-your-update-password-page",
            "supabase.otp",
            ["token_hash": "pkce_0a1b2c", "type": "recovery", "next": "/path-to-your-update-password-page"]
        ),
        Row(
            "https://abcd.supabase.co/auth/v1/verify?token=0a1b2c3d&type=recovery&redirect_to=myapp://reset",
            "supabase.otp",
            ["token_hash": "0a1b2c3d", "type": "recovery"]
        ),
        Row(
            "https://app.example.com/reset?token=token-value&tokenId=token-id-value",
            "appservices.reset",
            ["token": "token-value", "tokenId": "token-id-value"]
        ),
        Row(
            "https://app.example.com/confirmEmail/?token=a_token&tokenId=a_token_id",
            "appservices.confirm",
            ["tokenId": "a_token_id"]
        ),
        Row("myapp://Confirm-Email?token=t&tokenId=i", "appservices.confirm", [:]),
        Row("https://confirm.example.com/reset?token=t&tokenId=i", "appservices.reset", [:]),
    ]

    @Test(arguments: rows)
    func readsTheBuiltInFormat(_ row: Row) throws {
        try LinkExpectation.route(row.link, is: row.route, fields: row.fields)
    }

    @Test func dropsUnknownParametersAndNeverKeepsRedirectTo() throws {
        let route = try AuthLinks.route(
            "https://abcd.supabase.co/auth/v1/verify?token=ab&type=signup&redirect_to=https://example.com&utm_source=mail"
        )
        #expect(route.fields.names == ["token_hash", "type"])
    }

    @Test func keepsNumbersAsNumbersAndSecretsAsSecrets() throws {
        let route = try AuthLinks.route(LinkFixtures.supabaseSession(expiresIn: 60))
        #expect(route.fields["expires_in"] == .number(60))
        #expect(route.fields["access_token"]?.secret != nil)
        #expect(route.fields["access_token"]?.description == "<redacted>")
        #expect(route.fields["type"] == .text("recovery"))
    }

    @Test func anExpiredAccessTokenStillRoutes() throws {
        let expired = LinkFixtures.jwt(expiresAt: Date(timeIntervalSince1970: 1_000))
        let route = try AuthLinks.route(LinkFixtures.supabaseSession(accessToken: expired))
        #expect(route.id == "supabase.recovery")
        #expect(route.claims?.isExpired() == true)
    }

    struct Refusal: Sendable, CustomStringConvertible {
        var link: String
        var reason: RefusalReason
        var part: LinkPart
        var message: String
        var description: String { "\(reason.rawValue): \(link.prefix(70))" }
        init(_ link: String, _ reason: RefusalReason, _ part: LinkPart, _ message: String) {
            self.link = link
            self.reason = reason
            self.part = part
            self.message = message
        }
    }

    static let refusals: [Refusal] = [
        Refusal(
            "myapp://reset#access_token=\(jwt)&type=recovery",
            .missingField,
            .parameters,
            "missing field 'refresh_token'"
        ),
        Refusal("https://h.example/reset?token=abc", .missingField, .parameters, "missing field 'tokenId'"),
        Refusal("https://h.example/auth/confirm?token_hash=abc", .missingField, .parameters, "missing field 'type'"),
        Refusal(
            "myapp://reset#access_token=\(jwt)&refresh_token=",
            .emptyField,
            .fragment,
            "empty field 'refresh_token'"
        ),
        Refusal("myapp://cb?error&code=x", .emptyField, .query, "empty field 'error'"),
        Refusal("myapp://cb?error=x&error_code=", .emptyField, .query, "empty field 'error_code'"),
        Refusal("myapp://cb?code=", .emptyField, .query, "empty field 'code'"),
        Refusal(
            "myapp://reset#access_token=not-a-jwt&refresh_token=r",
            .malformedSecret,
            .fragment,
            "malformed secret 'access_token'"
        ),
        Refusal(
            "myapp://reset#access_token=a.b.&refresh_token=r",
            .malformedSecret,
            .fragment,
            "malformed secret 'access_token'"
        ),
        Refusal("https://h.example/reset?token=a%2Fb&tokenId=i", .malformedSecret, .query, "malformed secret 'token'"),
        Refusal(
            "myapp://cb?code=" + String(repeating: "a", count: 4_097),
            .malformedSecret,
            .query,
            "malformed secret 'code'"
        ),
        Refusal(
            "myapp://reset#access_token=\(jwt)&refresh_token=r&expires_in=60.5",
            .badValue,
            .fragment,
            "field 'expires_in' is not a whole number: '60.5'"
        ),
        Refusal(
            "myapp://reset#access_token=\(jwt)&refresh_token=r&expires_at=99999999999999999999",
            .badValue,
            .fragment,
            "field 'expires_at' is not a whole number: '99999999999999999999'"
        ),
        Refusal(
            "https://h.example/a?mode=deleteAccount&oobCode=c&apiKey=k",
            .badValue,
            .query,
            "unknown mode 'deleteAccount'"
        ),
        Refusal("https://h.example/auth/confirm?token_hash=t&type=admin", .badValue, .query, "unknown type 'admin'"),
        Refusal("myapp://cb?code=a#code=b", .conflictingParameter, .fragment, "conflicting parameter 'code'"),
        Refusal(
            "myapp://reset?access_token=\(jwt)#access_token=\(LinkFixtures.jwt())&refresh_token=r",
            .conflictingParameter,
            .fragment,
            "conflicting parameter 'access_token'"
        ),
    ]

    @Test(arguments: refusals)
    func refusesNamingReasonPartAndField(_ row: Refusal) {
        #expect(throws: RouteError.refused(row.reason, part: row.part, row.message)) { try AuthLinks.route(row.link) }
    }

    @Test func refusesHostileLinksBeforeAnyFormatSeesThem() throws {
        for (link, reason) in [
            ("https://app.example.com@evil.example/reset?token=t&tokenId=i", RefusalReason.userinfo),
            ("https://evil.example\\@app.example.com/reset?token=t&tokenId=i", .invalidCharacter),
            ("javascript:alert(document.cookie)//?code=x", .blockedScheme),
            ("https://app.example.com/reset/%2e%2e/admin?token=t&tokenId=i", .dotSegment),
        ] {
            try LinkExpectation.refusal(link, reason)
        }
    }

    @Test func aLinkNoFormatRecognisesIsUnmatched() {
        #expect(throws: RouteError.unmatched(RouteExplanation(link: "myapp://settings", candidates: []))) {
            try AuthLinks.route("myapp://settings?theme=dark")
        }
    }

    @Test func aFamilyAppliesOnlyItsOwnRules() throws {
        let link = try LinkURL(parsing: "myapp://cb?code=abc&state=xyz")
        #expect(try AuthLinkFormat.oauth.route(link).id == "oauth.callback")
        #expect(try AuthLinkFormat.supabase.route(link).id == "supabase.pkce")
        #expect(throws: RouteError.refused(.formatMismatch, part: .parameters, "the link is not a 'appservices' link"))
        {
            try AuthLinkFormat.appservices.route(link)
        }
        let error = try LinkURL(parsing: "myapp://cb?error=access_denied&state=s")
        #expect(try AuthLinkFormat.supabase.route(error).id == "supabase.error")
        #expect(try AuthLinkFormat.apple.route(error).id == "oauth.error")
        #expect(try AuthLinks.route(error).id == "oauth.error")
        #expect(throws: RouteError.self) { try AuthLinkFormat.firebase.route(error) }
    }
}
