import Foundation
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdTestSupport
import Testing

/// A reset link's session must be one a reset email made, as the backend's own token says (its `amr`), whatever
/// `type` the link claims; and the question for the password names the account whole, as the backend returned it.
@Suite(.ownThread) struct ResetSessionKindTests {
    private func reset(
        _ double: GoTrueDouble,
        _ material: SupabaseBackend.Material,
        _ passwords: ScriptedPasswords
    ) async -> Result<ResetSuccess, ResetFailure> {
        await PasswordReset(backend: double.backend, material: material, appName: "com.example.Notes")
            .run(passwords: passwords)
    }

    /// Someone signs in to their own account and mails the session as `…#access_token=…&type=recovery`: the
    /// person who opens it must not set that account's password.
    @Test(arguments: ["password", "oauth", "sso/saml"])
    func aSessionSignedInAnotherWayIsRefusedBeforeThePasswordIsAsked(method: String) async throws {
        let double = try doubleWithAda()
        let session = try #require(double.signedInSession(for: "ada@example.com", method: method))
        let unasked = ScriptedPasswords(["never sent"])
        let result = await reset(
            double,
            .session(accessToken: Secret(session.accessToken), refreshToken: Secret(session.refreshToken)),
            unasked
        )
        let refused = try #require(result.failure)
        #expect(refused.kind == .notAReset)
        #expect(
            refused.message
                == "the backend's token says this session was signed in by \(method), not by an emailed link; linkd "
                + "resets a password only with a session made by a reset email"
        )
        #expect(unasked.asked.withLock { $0.isEmpty })
        #expect(double.requestLines == ["GET /auth/v1/user"])
        #expect(double.password(of: "ada@example.com") == "old-password")
    }

    /// The refreshed session keeps the method it was signed in with: an expired password session is refused too.
    @Test func aRefreshedSessionIsJudgedByTheTokenTheBackendReturned() async throws {
        let double = try doubleWithAda()
        let session = try #require(double.signedInSession(for: "ada@example.com"))
        double.advanceClock(by: 7200)  // the access token is past its expiry by the backend's clock
        let unasked = ScriptedPasswords(["never sent"])
        let result = await reset(
            double,
            .session(accessToken: Secret(session.accessToken), refreshToken: Secret(session.refreshToken)),
            unasked
        )
        #expect(try #require(result.failure).message.contains("signed in by password"))
        #expect(double.requestLines == ["GET /auth/v1/user", "POST /auth/v1/token?grant_type=refresh_token"])
        #expect(unasked.asked.withLock { $0.isEmpty })
    }

    /// A token the backend did not issue is not judged by what it claims: `GET /user` refuses it first.
    @Test func aForgedTokenThatClaimsAnEmailedLinkIsTheBackendsToRefuse() async throws {
        let double = try doubleWithAda()
        let result = await reset(
            double,
            .session(accessToken: emailedLinkToken(), refreshToken: Secret("not-a-refresh-token")),
            ScriptedPasswords(["never sent"])
        )
        #expect(try #require(result.failure).kind == .linkExpiredOrUsed)
        #expect(double.requests.allSatisfy { $0.method != "PUT" })
    }

    /// A look-alike account is what a mailed attack uses: the whole address is shown, letters outside ASCII are
    /// spelled out, and format controls (which reorder what is seen) are stripped. Reports keep the masked form.
    @Test func thePromptNamesTheAccountWholeAndTheReportMasksIt() async throws {
        let double = try GoTrueDouble()
        let accounts = [
            ("ada@examp1e.com", "New password for ada@examp1e.com (com.example.Notes)", "a***@examp1e.com"),
            (
                "\u{430}da@example.com",
                "New password for \u{430}da@example.com — it has letters outside ASCII: U+430 (com.example.Notes)",
                "\u{430}***@example.com"
            ),
            ("ada@\u{202E}moc.elpmaxe", "New password for ada@moc.elpmaxe (com.example.Notes)", "a***@moc.elpmaxe"),
        ]
        for (email, prompt, masked) in accounts {
            double.addUser(email: email, password: "old-password")
            let link = try #require(double.recoverySession(for: email))
            let passwords = ScriptedPasswords(["new password 9"])
            let result = await reset(
                double,
                .session(accessToken: Secret(link.accessToken), refreshToken: Secret(link.refreshToken)),
                passwords
            )
            #expect(passwords.asked.withLock { $0.map(\.prompt) } == [prompt])
            #expect(try result.get().account == masked)
        }
    }

    /// Each way a reset email's session is made passes: the implicit link and `POST /verify` (`otp`), and PKCE
    /// (`recovery`, the flow's method).
    @Test func sessionsOfResetEmailsPass() async throws {
        let double = try doubleWithAda()
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        #expect(JWTClaims(Secret(link.accessToken))?.methods == ["otp"])
        let implicit = await reset(
            double,
            .session(accessToken: Secret(link.accessToken), refreshToken: Secret(link.refreshToken)),
            ScriptedPasswords(["new password 10"])
        )
        #expect(implicit.failure == nil)
        let hash = try #require(double.recoveryTokenHash(for: "ada@example.com"))
        let verified = await reset(double, .tokenHash(Secret(hash), type: "recovery"), ScriptedPasswords(["pass 11"]))
        #expect(verified.failure == nil)
        let verifier = PKCE.makeVerifier()
        try await double.backend.client.recover(
            email: "ada@example.com",
            redirectTo: "com.example.notes://reset",
            challenge: PKCE.challenge(for: verifier)
        )
        let code = try #require(double.pkceCode(for: "ada@example.com"))
        let exchanged = await reset(
            double,
            .pkce(code: Secret(code), verifier: PKCEVerifier(Secret(verifier))),
            ScriptedPasswords(["new password 12"])
        )
        #expect(exchanged.failure == nil)
        #expect(double.password(of: "ada@example.com") == "new password 12")
        let bearer = try #require(double.requests.last { $0.method == "PUT" }?.header("Authorization"))
        #expect(JWTClaims(Secret(String(bearer.dropFirst("Bearer ".count))))?.methods == ["recovery"])
    }
}
