import Foundation
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdTestSupport
import Testing

/// A backend whose error messages quote the request they refuse: what linkd shows and logs of them never holds the
/// password or a token of the link, as sent, JSON-escaped or percent-encoded.
@Suite(.ownThread) struct EchoRedactionTests {
    /// Short enough to be refused as weak, and with characters JSON escapes.
    static let password = #"p"w\1"#

    @Test func aRefusalThatQuotesThePasswordShowsItRedacted() async throws {
        let double = try doubleWithAda()
        double.quoteRequestsInErrors()
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let passwords = ScriptedPasswords([Self.password])
        let result = await PasswordReset(
            backend: double.backend,
            material: .session(accessToken: Secret(link.accessToken), refreshToken: Secret(link.refreshToken)),
            appName: "com.example.Notes"
        ).run(passwords: passwords)
        let failure = try #require(result.failure)
        #expect(failure.kind == .passwordRejected)
        // The double quoted the body as sent, `{"password": "p\"w\\1"}`, and the bearer token.
        #expect(failure.message.contains(#"(request: {"password": "<redacted>"}, Authorization: Bearer <redacted>)"#))
        let shown = failure.message + "\(passwords.asked.withLock { $0.map { $0.rejection?.description ?? "" } })"
        for secret in [Self.password, #"p\"w\\1"#, "p%22w%5C1", link.accessToken] {
            #expect(!shown.contains(secret), "shown: \(secret)")
        }
    }

    @Test func aRefusalThatQuotesTheLinksTokensShowsThemRedacted() async throws {
        let double = try doubleWithAda()
        double.quoteRequestsInErrors()
        let gone = Secret("unknown-refresh-token-1")
        let result = await PasswordReset(
            backend: double.backend,
            material: .session(accessToken: emailedLinkToken(), refreshToken: gone),
            appName: "com.example.Notes"
        ).run(passwords: ScriptedPasswords(["never sent"]))
        let failure = try #require(result.failure)
        #expect(failure.kind == .linkExpiredOrUsed)
        #expect(failure.message.contains(#"(request: {"refresh_token": "<redacted>"}, Authorization: none)"#))
        #expect(!failure.message.contains(gone.revealed()))
        #expect(double.requestLines == ["GET /auth/v1/user", "POST /auth/v1/token?grant_type=refresh_token"])
    }

    @Test func appServicesRefusalsAreRedactedForThePasswordAndTheTokenPair() async throws {
        let server = try TestHTTPServer { request in
            .json(
                400,
                ["error": "bad request: " + String(decoding: request.body, as: UTF8.self), "error_code": "BadRequest"]
            )
        }
        let backend = AppServicesBackend(
            client: AppServicesClient(url: server.baseURL, appID: "app-1", transport: CurlTransport())
        )
        let result = await PasswordReset(
            backend: backend,
            material: .init(token: Secret("token-secret-1"), tokenID: Secret("token-id-secret-1")),
            appName: "com.example.Notes"
        ).run(passwords: ScriptedPasswords(["Canary pass/7"]))
        let failure = try #require(result.failure)
        #expect(
            failure.message
                == #"the backend refused the request: bad request: {"password": "<redacted>", "token": "<redacted>", "#
                + #""tokenId": "<redacted>"} [BadRequest, HTTP 400]"#
        )
    }
}
