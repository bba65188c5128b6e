import LinkdRouting

/// Link examples taken from the backends' own public tests and documentation, each with its source, and what
/// linkd must make of it. Where linkd is stricter than the SDK that wrote the test (conflicting duplicates, JWT
/// shape), the row says so.
enum RealLinks {
    enum Outcome: Sendable {
        case route(String, [String: String])
        case refused(RefusalReason)
        case unmatched
    }

    struct Row: Sendable, CustomStringConvertible {
        var link: String
        var outcome: Outcome
        var source: String
        var description: String { "\(source): \(link.prefix(70))" }
    }

    /// supabase-swift `Tests/AuthTests/AuthClientTests.swift`, `setSessionWithAFutureExpirationDate` (exp 4852163593).
    static let futureJWT =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhdWQiOiJhdXRoZW50aWNhdGVkIiwiZXhwIjo0ODUyMTYzNTkzLCJzdWIiOiJmMzNkM2VjOS1hMmVlLTQ3YzQtODBlMS01YmQ5MTlmM2Q4YjgiLCJlbWFpbCI6ImhpQGJpbmFyeXNjcmFwaW5nLmNvIiwicGhvbmUiOiIiLCJhcHBfbWV0YWRhdGEiOnsicHJvdmlkZXIiOiJlbWFpbCIsInByb3ZpZGVycyI6WyJlbWFpbCJdfSwidXNlcl9tZXRhZGF0YSI6e30sInJvbGUiOiJhdXRoZW50aWNhdGVkIn0.UiEhoahP9GNrBKw_OHBWyqYudtoIlZGkrjs7Qa8hU7I"
    /// supabase-swift `Tests/AuthTests/AuthClientTests.swift`, `setSessionWithAExpiredToken` (exp 1648640021).
    static let expiredJWT =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhdWQiOiJhdXRoZW50aWNhdGVkIiwiZXhwIjoxNjQ4NjQwMDIxLCJzdWIiOiJmMzNkM2VjOS1hMmVlLTQ3YzQtODBlMS01YmQ5MTlmM2Q4YjgiLCJlbWFpbCI6ImhpQGJpbmFyeXNjcmFwaW5nLmNvIiwicGhvbmUiOiIiLCJhcHBfbWV0YWRhdGEiOnsicHJvdmlkZXIiOiJlbWFpbCIsInByb3ZpZGVycyI6WyJlbWFpbCJdfSwidXNlcl9tZXRhZGF0YSI6e30sInJvbGUiOiJhdXRoZW50aWNhdGVkIn0.CGr5zNE5Yltlbn_3Ms2cjSLs_AW9RKM3lxh7cTQrg0w"
    /// supabase-js `packages/core/auth-js/test/helpers.test.ts`, `decodeJWT` (ES256, exp 1838099670, anonymous).
    static let es256JWT =
        "eyJhbGciOiJFUzI1NiIsImtpZCI6ImZhM2ZmYzk5LTQ2MzUtNGIxOS1iNWMwLTZkNmE4ZDMwYzRlYiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL3Byb2plY3RyZWYuc3VwYWJhc2UuY28iLCJzdWIiOiI2OTAxMTJlNi04NThiLTQwYzctODBlNi05NmRiNjk3MTkyYjUiLCJhdWQiOiJhdXRoZW50aWNhdGVkIiwiZXhwIjoxODM4MDk5NjcwLCJpYXQiOjE3MzgwOTk2NzAsImVtYWlsIjoiIiwicGhvbmUiOiIiLCJhcHBfbWV0YWRhdGEiOnt9LCJ1c2VyX21ldGFkYXRhIjp7ImNvbG9yIjoiYmx1ZSJ9LCJyb2xlIjoiIiwiYWFsIjoiYWFsMSIsImFtciI6W3sibWV0aG9kIjoiYW5vbnltb3VzIiwidGltZXN0YW1wIjoxNzM4MDk5NjcwfV0sInNlc3Npb25faWQiOiI0YzZiMjg5NC00M2I0LTQ2YzQtYmQyZi0zNWM1OWVjNDRmZWYiLCJpc19hbm9ueW1vdXMiOnRydWV9.JcWCW3u4F9iFo1yV3OlxnosP7jLnOa2Q7LoPTxyFmvZc1_Kziimw8jD95EpXyTMEwKFt2dPSmWGkqdoJu6FV0Q"

    /// GoTrue's implicit redirect fragment (`internal/tokens/service.go` `AsRedirectURL`: keys sorted, `sb=`).
    static func fragment(_ jwt: String, type: String, refresh: String = "GGduTeu95GraIXQ56jppkw") -> String {
        "access_token=\(jwt)&expires_at=1767225600&expires_in=3600&refresh_token=\(refresh)&sb=&token_type=bearer&type=\(type)"
    }

    static let gotrue = "supabase/auth"
    static let swift = "supabase/supabase-swift Tests/AuthTests"
    static let firebase = "firebase/firebase-js-sdk packages/auth/src/core/action_code_url.test.ts"
    static let docs =
        "supabase/supabase apps/docs/content/guides/auth/server-side/email-based-auth-with-pkce-flow-for-ssr.mdx"
    static let uuid = "3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
    static let hash = "pkce_5c7a9e8f1d2b3a4c6e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f"

    static let rows: [Row] =
        gotrueRows + docsRows + swiftRows + authJSRows + realWorldRows + appServicesRows
        + firebaseRows + oauthRows

    static let gotrueRows: [Row] = [
        Row(
            link:
                "https://example.com/?error=invalid_request&error_code=validation_failed&error_description=Invalid+redirect+URL#error=invalid_request&error_code=validation_failed&error_description=Invalid+redirect+URL&sb=",
            outcome: .route(
                "supabase.error",
                ["error_code": "validation_failed", "error_description": "Invalid redirect URL"]
            ),
            source: "\(gotrue) internal/api/verify_test.go TestPrepErrorRedirectURL (PKCE)"
        ),
        Row(
            link:
                "https://example.com/?test=param#error=invalid_request&error_code=validation_failed&error_description=Invalid+redirect+URL&sb=",
            outcome: .route("supabase.error", ["error": "invalid_request"]),
            source: "\(gotrue) internal/api/verify_test.go TestPrepErrorRedirectURL (implicit)"
        ),
        Row(
            link:
                "https://example.com?first=another&message=Valid+redirect+URL&second=other#message=Valid+redirect+URL",
            outcome: .unmatched,
            source: "\(gotrue) internal/api/verify_test.go TestPrepRedirectURL (a message is not an error)"
        ),
        Row(
            link:
                "https://example.com/#message=Confirmation+link+accepted.+Please+proceed+to+confirm+link+sent+to+the+other+email",
            outcome: .unmatched,
            source: "\(gotrue) internal/api/verify_test.go TestPrepRedirectURL (implicit)"
        ),
        Row(
            link:
                "https://example.com?message=Confirmation+link+accepted.+Please+proceed+to+confirm+link+sent+to+the+other+email#message=Confirmation+link+accepted.+Please+proceed+to+confirm+link+sent+to+the+other+email",
            outcome: .unmatched,
            source: "\(gotrue) internal/api/verify_test.go TestPrepRedirectURL (overlapping query params)"
        ),
        Row(
            link:
                "http://localhost:3000#error=unauthorized_client&error_code=401&error_description=Email+link+is+invalid+or+has+expired",
            outcome: .route("supabase.error", ["error_code": "401", "error": "unauthorized_client"]),
            source: "\(gotrue) internal/api/verify_test.go TestExpiredConfirmationToken (numeric error_code)"
        ),
        Row(
            link: "http://localhost:3000/#/#" + fragment(futureJWT, type: "signup"),
            outcome: .route("supabase.session", ["type": "signup", "access_token": futureJWT]),
            source: "\(gotrue) internal/api/verify_test.go site URL http://localhost:3000/#/ (two #)"
        ),
        Row(
            link: "https://someapp-something.codemagic.app/#/#" + fragment(futureJWT, type: "recovery"),
            outcome: .route("supabase.recovery", ["refresh_token": "GGduTeu95GraIXQ56jppkw"]),
            source: "\(gotrue) internal/api/verify_test.go site URL https://someapp-something.codemagic.app/#/"
        ),
        Row(
            link: "http://sub.test.dev:3000/#/#" + fragment(futureJWT, type: "invite"),
            outcome: .route("supabase.session", ["type": "invite"]),
            source: "\(gotrue) internal/api/verify_test.go wildcard site URL http://sub.test.dev:3000/#/"
        ),
        Row(
            link: "twitter://timeline#" + fragment(futureJWT, type: "magiclink"),
            outcome: .route("supabase.session", ["type": "magiclink"]),
            source: "\(gotrue) internal/api/verify_test.go exact mobile deep link twitter://timeline"
        ),
        Row(
            link: "com.example.app://sign-in/v2#" + fragment(futureJWT, type: "recovery"),
            outcome: .route("supabase.recovery", ["expires_in": "3600", "expires_at": "1767225600"]),
            source: "\(gotrue) internal/api/verify_test.go wildcard mobile deep link com.example.app://**"
        ),
        Row(
            link: "com.example.app://sign-in/v2?code=\(uuid)",
            outcome: .route("supabase.pkce", ["code": uuid]),
            source: "\(gotrue) internal/api/verify_test.go TestVerifyPKCEOTP (code in the query)"
        ),
        Row(
            link: "https://example.com/account/update-password?code=\(uuid)&next=%2Faccount%2Fupdate-password",
            outcome: .route("supabase.pkce", ["next": "/account/update-password"]),
            source: "\(gotrue) internal/api/verify.go prepPKCERedirectURL (re-encoded next)"
        ),
        Row(
            link:
                "myapp://reset#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb=",
            outcome: .route("supabase.error", ["error_code": "otp_expired"]),
            source: "\(gotrue) internal/api/verify.go (403 otp_expired)"
        ),
        Row(
            link: "myapp://reset#error=access_denied&error_code=user_banned&error_description=User+is+banned&sb=",
            outcome: .route("supabase.error", ["error_code": "user_banned", "error_description": "User is banned"]),
            source: "\(gotrue) internal/api/verify.go (403 user_banned)"
        ),
        Row(
            link: "https://example.com#" + fragment(expiredJWT, type: "recovery"),
            outcome: .route("supabase.recovery", ["access_token": expiredJWT]),
            source: "\(gotrue) internal/tokens/service.go AsRedirectURL (an expired token still routes)"
        ),
    ]

    static let docsRows: [Row] = [
        Row(
            link:
                "https://example.com/auth/confirm?token_hash=\(hash)&type=recovery&next=/path-to-your-update-password-page",
            outcome: .route(
                "supabase.otp",
                ["token_hash": hash, "type": "recovery", "next": "/path-to-your-update-password-page"]
            ),
            source: "\(docs) Reset Password template (pkce_ token hash)"
        ),
        Row(
            link:
                "https://example.com/auth/confirm?token_hash=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15&type=email",
            outcome: .route("supabase.otp", ["type": "email"]),
            source: "\(docs) Confirm signup template"
        ),
        Row(
            link:
                "https://example.com/auth/confirm?token_hash=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15&type=invite&next=/path-to-your-update-password-page",
            outcome: .route("supabase.otp", ["type": "invite"]),
            source: "\(docs) Invite user template"
        ),
        Row(
            link:
                "https://example.com/auth/confirm?token_hash=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15&type=magiclink",
            outcome: .route("supabase.otp", ["type": "magiclink"]),
            source: "\(docs) Magic link template"
        ),
        Row(
            link:
                "https://example.com/auth/confirm?token_hash=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15&type=email_change",
            outcome: .route("supabase.otp", ["type": "email_change"]),
            source: "\(docs) Change email address template"
        ),
        Row(
            link:
                "https://project-ref.supabase.co/auth/v1/verify?token=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15&type=signup&redirect_to=https://example.com/path",
            outcome: .route(
                "supabase.otp",
                ["token_hash": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15", "type": "signup"]
            ),
            source: "supabase.com/docs/guides/auth/auth-email-templates (hosted verify link, raw redirect_to)"
        ),
        Row(
            link:
                "https://project-ref.supabase.co/auth/v1/verify?token=\(hash)&type=recovery&redirect_to=com.example.notes://reset",
            outcome: .route("supabase.otp", ["token_hash": hash, "type": "recovery"]),
            source: "\(gotrue) internal/mailer/templatemailer/templatemailer.go encodeRedirectURL (raw custom scheme)"
        ),
        Row(
            link:
                "https://project-ref.supabase.co/auth/v1/verify?token=\(hash)&type=recovery&redirect_to=https%3A%2F%2Fexample.com%2Fauth%2Fcallback%3Fnext%3D%2Faccount",
            outcome: .route("supabase.otp", ["type": "recovery"]),
            source:
                "\(gotrue) internal/mailer/templatemailer/templatemailer.go encodeRedirectURL (escaped when it holds =)"
        ),
    ]

    static let swiftRows: [Row] = [
        Row(
            link: "io.supabase.flutterquickstart://login-callback/?code=\(uuid)",
            outcome: .route("supabase.pkce", ["code": uuid]),
            source: "\(swift)/ExtractParamsTests.swift testExtractParamsInQuery"
        ),
        Row(
            link: "io.supabase.flutterquickstart://login-callback/#code=\(uuid)",
            outcome: .route("supabase.pkce", ["code": uuid]),
            source: "\(swift)/ExtractParamsTests.swift testExtractParamsInFragment"
        ),
        Row(
            link: "io.supabase.flutterquickstart://login-callback/?code=\(uuid)#message=abc",
            outcome: .route("supabase.pkce", ["code": uuid]),
            source: "\(swift)/ExtractParamsTests.swift testExtractParamsInBothFragmentAndQuery"
        ),
        Row(
            link: "io.supabase.flutterquickstart://login-callback/?code=123#code=abc",
            outcome: .refused(.conflictingParameter),
            source:
                "\(swift)/ExtractParamsTests.swift testExtractParamsQueryTakesPrecedence (linkd refuses the conflict)"
        ),
        Row(
            link:
                "https://dummy-url.com/callback#access_token=accesstoken&expires_in=60&refresh_token=refreshtoken&token_type=bearer",
            outcome: .refused(.malformedSecret),
            source: "\(swift)/AuthClientTests.swift sessionWithURL_implicitFlow (linkd requires a JWT)"
        ),
        Row(
            link:
                "https://dummy-url.com/callback#access_token=accesstoken&expires_in=60&refresh_token=refreshtoken&token_type=bearer&type=recovery",
            outcome: .refused(.malformedSecret),
            source: "\(swift)/AuthClientTests.swift sessionWithURL_implicitFlow_recoveryType (linkd requires a JWT)"
        ),
        Row(
            link:
                "https://dummy-url.com/callback#invalid_key=accesstoken&expires_in=60&refresh_token=refreshtoken&token_type=bearer",
            outcome: .unmatched,
            source: "\(swift)/AuthClientTests.swift sessionWithURL_implicitFlow_invalidURL"
        ),
        Row(
            link: "https://dummy-url.com/callback#error_description=Invalid+code&error=invalid_grant",
            outcome: .route("oauth.error", ["error": "invalid_grant", "error_description": "Invalid code"]),
            source: "\(swift)/AuthClientTests.swift sessionWithURL_implicitFlow_error"
        ),
        Row(
            link: "https://dummy-url.com/callback?error=access_denied&error_description=User+denied+access",
            outcome: .route("oauth.error", ["error_description": "User denied access"]),
            source: "\(swift)/AuthClientTests.swift sessionWithURL_implicitFlow_errorQueryParam"
        ),
        Row(
            link: "https://dummy-url.com/callback?error=access_denied",
            outcome: .route("oauth.error", ["error": "access_denied"]),
            source: "\(swift)/AuthClientTests.swift sessionWithURL_implicitFlow_errorQueryParamNoDescription"
        ),
        Row(
            link: "https://dummy-url.com/callback#error=access_denied",
            outcome: .route("oauth.error", ["error": "access_denied"]),
            source: "\(swift)/AuthClientTests.swift sessionWithURL_implicitFlow_errorHashFragmentNoDescription"
        ),
        Row(
            link: "https://dummy-url.com/callback#error_description=Invalid+code&error=invalid_grant&error_code=500",
            outcome: .route("supabase.error", ["error_code": "500"]),
            source: "\(swift)/AuthClientTests.swift sessionWithURL_pkceFlow_error"
        ),
        Row(
            link: "https://dummy-url.com/callback#error=invalid_grant&error_code=500",
            outcome: .route("supabase.error", ["error": "invalid_grant"]),
            source: "\(swift)/AuthClientTests.swift sessionWithURL_pkceFlow_error_noErrorDescription"
        ),
        Row(
            link: "https://dummy-url.com/callback#access_token=accesstoken&expires_in=60&refresh_token=refreshtoken",
            outcome: .refused(.malformedSecret),
            source: "\(swift)/AuthClientTests.swift sessionFromURLWithMissingComponent"
        ),
        Row(
            link:
                "https://dummy-url.com/callback#access_token=\(futureJWT)&expires_in=60&refresh_token=dummy-refresh-token&token_type=bearer&type=recovery",
            outcome: .route("supabase.recovery", ["refresh_token": "dummy-refresh-token", "expires_in": "60"]),
            source: "\(swift)/AuthClientTests.swift setSessionWithAFutureExpirationDate token"
        ),
        Row(
            link:
                "https://dummy-url.com/callback#access_token=\(expiredJWT)&refresh_token=dummy-refresh-token&type=recovery",
            outcome: .route("supabase.recovery", ["access_token": expiredJWT]),
            source: "\(swift)/AuthClientTests.swift setSessionWithAExpiredToken token (expired still routes)"
        ),
    ]

    static let authJSRows: [Row] = [
        Row(
            link: "https://supabase.com/?a=b&b=c&x=z#d=e&x=y",
            outcome: .refused(.conflictingParameter),
            source:
                "supabase/supabase-js packages/core/auth-js/test/helpers.test.ts parseParametersFromURL (linkd refuses the conflict)"
        ),
        Row(
            link: "https://supabase.com/?a=b&b=c",
            outcome: .unmatched,
            source: "supabase/supabase-js packages/core/auth-js/test/helpers.test.ts parseParametersFromURL"
        ),
        Row(
            link:
                "https://projectref.supabase.co/callback#access_token=\(es256JWT)&refresh_token=v0abcdEFGH-ij_KLMN&type=magiclink",
            outcome: .route("supabase.session", ["access_token": es256JWT]),
            source: "supabase/supabase-js packages/core/auth-js/test/helpers.test.ts decodeJWT (ES256 token)"
        ),
        Row(
            link: "http://localhost:3000/#/#access_token=\(es256JWT)&refresh_token=v0abcdEFGH-ij_KLMN&type=recovery",
            outcome: .route("supabase.recovery", ["type": "recovery"]),
            source:
                "supabase/supabase-js packages/core/auth-js/src/lib/helpers.ts parseParametersFromURL (auth-js misses this token)"
        ),
        Row(
            link:
                "myapp://reset#access_token=eyJhbGciOiJIUzI1NiJ9%2EeyJzdWIiOiIxIn0%2Esig&refresh_token=ab%5Fcd%2Def&type=recovery",
            outcome: .route(
                "supabase.recovery",
                ["access_token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", "refresh_token": "ab_cd-ef"]
            ),
            source: "reference/auth-links.md §8.13 over-encoded JWT and refresh token"
        ),
    ]

    static let realWorldRows: [Row] = [
        Row(
            link:
                "https://www.tesla-wrap.com/#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired",
            outcome: .route(
                "supabase.error",
                ["error_code": "otp_expired", "error_description": "Email link is invalid or has expired"]
            ),
            source: "dtschannen/Tesla-Wrap-Studio issue 7"
        ),
        Row(
            link:
                "http://localhost:3000/login#error=unauthorized_client&error_code=401&error_description=Email+link+is+invalid+or+has+expired",
            outcome: .route("supabase.error", ["error_code": "401"]),
            source: "iamshaunjp/nextjs-masterclass issue 6"
        ),
        Row(
            link:
                "http://localhost:3000/#error=unauthorized_client&error_code=401&error_description=Email+link+is+invalid+or+has+expired",
            outcome: .route("supabase.error", ["error": "unauthorized_client"]),
            source: "The-Vibe-Company/quivr issue 643"
        ),
    ]

    static let appServicesRows: [Row] = [
        Row(
            link: "https://app.example.com/resetPassword?token=token-value&tokenId=token-id-value",
            outcome: .route("appservices.reset", ["token": "token-value", "tokenId": "token-id-value"]),
            source:
                "realm/realm-js packages/realm-web/src/tests/EmailPasswordAuth.test.ts (values) + mongodb/docs-app-services email-password.txt (format)"
        ),
        Row(
            link: "https://app.example.com/confirmEmail?token=token-value&tokenId=token-id-value",
            outcome: .route("appservices.confirm", ["tokenId": "token-id-value"]),
            source: "realm/realm-js packages/realm-web/src/tests/EmailPasswordAuth.test.ts can confirm a user"
        ),
        Row(
            link: "https://app.example.com/reset?token=token_sample&tokenId=token_id_sample",
            outcome: .route("appservices.reset", ["token": "token_sample"]),
            source: "realm/realm-core test/object-store/sync/app.cpp reset password invalid tokens"
        ),
        Row(
            link: "myapp://reset-password?token=a_token&tokenId=a_token_id",
            outcome: .route("appservices.reset", ["tokenId": "a_token_id"]),
            source: "realm/realm-core test/object-store/sync/app.cpp (custom scheme, host only)"
        ),
        Row(
            link: "myapp://confirm-email?token=a_token&tokenId=a_token_id",
            outcome: .route("appservices.confirm", ["token": "a_token"]),
            source: "realm/realm-core test/object-store/sync/app.cpp (confirmation by host)"
        ),
        Row(
            link: "https://app.example.com/resetPassword?token=token-value",
            outcome: .refused(.missingField),
            source: "mongodb/docs-app-services source/authentication/email-password.txt (both are required)"
        ),
    ]

    static let firebaseRows: [Row] = [
        Row(
            link:
                "https://www.example.com/finishSignIn?oobCode=CODE&mode=signIn&apiKey=API_KEY&continueUrl=https%3A%2F%2Fwww.example.com%2Fpath%2Fto%2Ffile%3Fa%3D1%26b%3D2%23c%3D3&lang=en&tenantId=TENANT_ID&state=bla",
            outcome: .route(
                "firebase.action",
                [
                    "mode": "signIn", "oobCode": "CODE", "apiKey": "API_KEY",
                    "continueUrl": "https://www.example.com/path/to/file?a=1&b=2#c=3", "lang": "en",
                    "tenantId": "TENANT_ID",
                ]
            ),
            source: "\(firebase) should parse correctly formatted links"
        ),
        Row(
            link: "https://www.example.com/finishSignIn?oobCode=CODE&mode=signIn&apiKey=API_KEY&lang=en",
            outcome: .route("firebase.action", ["mode": "signIn"]),
            source: "\(firebase) should identify EMAIL_SIGNIN"
        ),
        Row(
            link: "https://www.example.com/finishSignIn?oobCode=CODE&mode=verifyAndChangeEmail&apiKey=API_KEY&lang=en",
            outcome: .route("firebase.action", ["mode": "verifyAndChangeEmail"]),
            source: "\(firebase) should identify VERIFY_AND_CHANGE_EMAIL"
        ),
        Row(
            link: "https://www.example.com/finishSignIn?oobCode=CODE&mode=verifyEmail&apiKey=API_KEY&lang=en",
            outcome: .route("firebase.action", ["mode": "verifyEmail"]),
            source: "\(firebase) should identify VERIFY_EMAIL"
        ),
        Row(
            link: "https://www.example.com/finishSignIn?oobCode=CODE&mode=recoverEmail&apiKey=API_KEY&lang=en",
            outcome: .route("firebase.action", ["mode": "recoverEmail"]),
            source: "\(firebase) should identify RECOVER_EMAIL"
        ),
        Row(
            link: "https://www.example.com/finishSignIn?oobCode=CODE&mode=resetPassword&apiKey=API_KEY&lang=en",
            outcome: .route("firebase.action", ["mode": "resetPassword"]),
            source: "\(firebase) should identify PASSWORD_RESET"
        ),
        Row(
            link:
                "https://www.example.com/finishSignIn?oobCode=CODE&mode=revertSecondFactorAddition&apiKey=API_KEY&lang=en",
            outcome: .route("firebase.action", ["mode": "revertSecondFactorAddition"]),
            source: "\(firebase) should identify REVERT_SECOND_FACTOR_ADDITION"
        ),
        Row(
            link: "https://www.example.com:8080/finishSignIn?oobCode=CODE&mode=signIn&apiKey=API_KEY&state=bla",
            outcome: .route("firebase.action", ["oobCode": "CODE", "apiKey": "API_KEY"]),
            source: "\(firebase) should work if there is a port number in the URL"
        ),
        Row(
            link:
                "https://www.example.com/finishSignIn?oobCode=CODE1&mode=signIn&apiKey=API_KEY1&state=bla#oobCode=CODE2&mode=signIn&apiKey=API_KEY2&state=bla",
            outcome: .refused(.conflictingParameter),
            source: "\(firebase) should ignore parameters after anchor (linkd refuses the conflict)"
        ),
        Row(
            link: "https://www.example.com/finishSignIn",
            outcome: .unmatched,
            source: "\(firebase) should handle missing API key, code & mode"
        ),
        Row(
            link: "https://www.example.com/finishSignIn?oobCode=CODE&mode=INVALID_MODE&apiKey=API_KEY",
            outcome: .refused(.badValue),
            source: "\(firebase) should handle invalid mode"
        ),
        Row(
            link: "https://www.example.com/finishSignIn?mode=signIn&apiKey=API_KEY",
            outcome: .refused(.missingField),
            source: "\(firebase) should handle missing code"
        ),
        Row(
            link: "https://www.example.com/finishSignIn?oobCode=CODE&mode=signIn",
            outcome: .refused(.missingField),
            source: "\(firebase) should handle missing API key"
        ),
        Row(
            link: "https://www.example.com/finishSignIn?oobCode=CODE&apiKey=API_KEY",
            outcome: .refused(.missingField),
            source: "\(firebase) should handle missing mode"
        ),
        Row(
            link: "https://example.com/usermgmt?mode=resetPassword&oobCode=ABC123&apiKey=AIzaSy...&lang=fr",
            outcome: .route("firebase.action", ["oobCode": "ABC123", "apiKey": "AIzaSy...", "lang": "fr"]),
            source: "firebase.google.com/docs/auth/custom-email-handler"
        ),
        Row(
            link:
                "https://example.page.link/?link=https%3A%2F%2Fexample.firebaseapp.com%2F__%2Fauth%2Faction%3Fmode%3DresetPassword%26oobCode%3DCODE%26apiKey%3DAPI_KEY",
            outcome: .route("firebase.action", ["mode": "resetPassword", "oobCode": "CODE"]),
            source: "firebase/firebase-js-sdk packages/auth/src/core/action_code_url.ts parseDeepLink (link=)"
        ),
        Row(
            link:
                "myapp://action?deep_link_id=https%3A%2F%2Fexample.firebaseapp.com%2F__%2Fauth%2Faction%3Fmode%3DverifyEmail%26oobCode%3DCODE%26apiKey%3DAPI_KEY",
            outcome: .route("firebase.action", ["mode": "verifyEmail"]),
            source: "firebase/firebase-js-sdk packages/auth/src/core/action_code_url.ts parseDeepLink (deep_link_id=)"
        ),
    ]

    static let oauthRows: [Row] = [
        Row(
            link: "https://client.example.com/cb?error=access_denied&state=xyz",
            outcome: .route("oauth.error", ["error": "access_denied", "state": "xyz"]),
            source: "RFC 6749 §4.1.2.1"
        ),
        Row(
            link: "https://client.example.com/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz",
            outcome: .route("oauth.callback", ["code": "SplxlOBeZQQYbYS6WxSbIA", "state": "xyz"]),
            source: "RFC 6749 §4.1.2"
        ),
        Row(
            link:
                "http://example.com/cb#access_token=2YotnFZFEjr1zCsicMWpAA&state=xyz&token_type=example&expires_in=3600",
            outcome: .refused(.malformedSecret),
            source: "RFC 6749 §4.2.2 (an opaque access token is not the JWT linkd requires)"
        ),
        Row(
            link: "com.example.app:/oauth2redirect/example-provider?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz",
            outcome: .route("oauth.callback", ["state": "xyz"]),
            source: "RFC 8252 §7.1 private-use URI scheme"
        ),
        Row(
            link: "http://127.0.0.1:51004/oauth2redirect/example-provider?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz",
            outcome: .route("oauth.callback", ["code": "SplxlOBeZQQYbYS6WxSbIA"]),
            source: "RFC 8252 §7.3 loopback redirect"
        ),
        Row(
            link: "https://example-app.com/redirect?error=user_cancelled_authorize&state=xyz",
            outcome: .route("oauth.error", ["error": "user_cancelled_authorize"]),
            source: "developer.apple.com Sign in with Apple REST (user cancelled)"
        ),
        Row(
            link: "https://example-app.com/redirect#code=c1e2f3.0.abcd.EFGH&id_token=\(futureJWT)&state=xyz",
            outcome: .route("apple.callback", ["code": "c1e2f3.0.abcd.EFGH", "state": "xyz"]),
            source: "developer.apple.com Sign in with Apple JS (response_mode=fragment)"
        ),
    ]
}
