import Foundation
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdTestSupport
import Testing

/// The generic reset against both backends' doubles: what each receives, field by field, and how each refusal ends.
@Suite(.ownThread) struct PasswordResetTests {
    private static let appServicesReset =
        "/api/client/v2.0/app/\(AppServicesDouble.appID)/auth/providers/local-userpass/reset"

    /// Runs a reset of `material` against `backend` for com.example.Notes, with the passwords `passwords` gives.
    private func reset<Backend: AuthBackend>(
        _ backend: Backend,
        _ material: Backend.Material,
        _ passwords: ScriptedPasswords,
        beforeSending: @escaping @Sendable () async -> Bool = { true }
    ) async -> Result<ResetSuccess, ResetFailure> {
        await PasswordReset(
            backend: backend,
            material: material,
            appName: "com.example.Notes",
            beforeSending: beforeSending
        ).run(passwords: passwords)
    }

    @Test func aSupabaseLinkSetsThePasswordForItsSessionAndSignsItOut() async throws {
        let double = try doubleWithAda()
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let passwords = ScriptedPasswords(["correct horse battery"])
        let result = await reset(
            double.backend,
            .session(accessToken: Secret(link.accessToken), refreshToken: Secret(link.refreshToken)),
            passwords
        )
        #expect(result == .success(ResetSuccess(account: "a***@example.com", signedOut: true)))
        #expect(
            passwords.asked.withLock { $0.map(\.prompt) } == ["New password for ada@example.com (com.example.Notes)"]
        )
        #expect(
            double.requestLines == ["GET /auth/v1/user", "PUT /auth/v1/user", "POST /auth/v1/logout?scope=local"]
        )
        #expect(double.missingSessionHeaders(accessToken: link.accessToken) == [])
        #expect(double.requests[1].jsonBody as? [String: String] == ["password": "correct horse battery"])
        #expect(double.requests[1].header("Content-Type") == "application/json")
        #expect(double.requests[0].body.isEmpty && double.requests[2].body.isEmpty)
        #expect(double.password(of: "ada@example.com") == "correct horse battery")
        #expect(!double.isSessionLive(accessToken: link.accessToken))
    }

    @Test func anAppServicesLinkSetsThePasswordWithItsTokenPairAlone() async throws {
        let double = try appServicesWithAda()
        let link = double.resetToken(for: "ada@example.com")
        let passwords = ScriptedPasswords(["new password 4"])
        let result = await reset(
            double.backend,
            .init(token: Secret(link.token), tokenID: Secret(link.tokenID)),
            passwords
        )
        #expect(result == .success(ResetSuccess(account: "your com.example.Notes account", signedOut: false)))
        #expect(
            passwords.asked.withLock { $0.map(\.prompt) } == [
                "New password for the account this link was sent to (com.example.Notes)"
            ]
        )
        let request = try #require(double.requests.first)
        #expect(double.requests.count == 1 && request.method == "POST" && request.target == Self.appServicesReset)
        #expect(
            request.jsonBody as? [String: String] == [
                "password": "new password 4", "token": link.token, "tokenId": link.tokenID,
            ]
        )
        #expect(request.header("Content-Type") == "application/json;charset=utf-8")
        #expect(request.header("Accept") == "application/json" && request.header("Authorization") == nil)
        #expect(double.password(of: "ada@example.com") == "new password 4")
    }

    @Test func anExpiredLinkEndsAsSuchWithoutChangingThePassword() async throws {
        // Supabase: the PKCE flow outlived GoTrue's 300 s; the link fails before a password is asked.
        let gotrue = try doubleWithAda()
        let verifier = PKCE.makeVerifier()
        try await gotrue.backend.client.recover(
            email: "ada@example.com",
            redirectTo: "com.example.notes://reset",
            challenge: PKCE.challenge(for: verifier)
        )
        let code = try #require(gotrue.pkceCode(for: "ada@example.com"))
        gotrue.advanceClock(by: 301)
        let unasked = ScriptedPasswords(["never sent"])
        let supabase = await reset(
            gotrue.backend,
            .pkce(code: Secret(code), verifier: PKCEVerifier(Secret(verifier))),
            unasked
        )
        let expired = try #require(supabase.failure)
        #expect(expired.kind == .linkExpiredOrUsed)
        #expect(expired.message.contains("flow_state_expired"))
        #expect(unasked.asked.withLock { $0.isEmpty })
        #expect(gotrue.requestLines.last == "POST /auth/v1/token?grant_type=pkce")
        let exchange = try #require(gotrue.requests.last?.jsonBody as? [String: String])
        #expect(exchange == ["auth_code": code, "code_verifier": verifier])

        // App Services: the token outlived its 30 minutes; the refusal answers the password, which is not taken.
        let appServices = try appServicesWithAda()
        let old = appServices.resetToken(for: "ada@example.com", age: 31 * 60)
        let refused = await reset(
            appServices.backend,
            .init(token: Secret(old.token), tokenID: Secret(old.tokenID)),
            ScriptedPasswords(["new password 5"])
        )
        let used = try #require(refused.failure)
        #expect(used.kind == .linkExpiredOrUsed && used.message.contains("UserpassTokenInvalid"))
        #expect(appServices.password(of: "ada@example.com") == "old-password")
    }

    @Test func aRefusedPasswordIsAskedAgainWithTheBackendsRefusal() async throws {
        let gotrue = try doubleWithAda()
        let hash = try #require(gotrue.recoveryTokenHash(for: "ada@example.com"))
        let terminal = ScriptedPasswords(["abc", "a much better one"])
        let supabase = await reset(gotrue.backend, .tokenHash(Secret(hash), type: "recovery"), terminal)
        #expect(supabase == .success(ResetSuccess(account: "a***@example.com", signedOut: true)))
        #expect(terminal.asked.withLock { $0.map { $0.rejection?.code } } == [nil, "weak_password"])
        #expect(
            gotrue.requestLines == [
                "POST /auth/v1/verify", "PUT /auth/v1/user", "PUT /auth/v1/user", "POST /auth/v1/logout?scope=local",
            ]
        )
        #expect(gotrue.requests[0].jsonBody as? [String: String] == ["token_hash": hash, "type": "recovery"])
        #expect(gotrue.password(of: "ada@example.com") == "a much better one")

        let appServices = try appServicesWithAda()
        let link = appServices.resetToken(for: "ada@example.com")
        let again = ScriptedPasswords(["abc", "long enough now"])
        let result = await reset(
            appServices.backend,
            .init(token: Secret(link.token), tokenID: Secret(link.tokenID)),
            again
        )
        #expect(try result.get().signedOut == false)
        #expect(again.asked.withLock { $0.map { $0.rejection?.code } } == [nil, AppServicesDouble.passwordErrorCode])
        #expect(appServices.requests.compactMap { $0.jsonBody?["password"] as? String } == ["abc", "long enough now"])
        #expect(appServices.password(of: "ada@example.com") == "long enough now")
    }

    @Test func nothingCarriesThePasswordWhenBeforeSendingSaysNo() async throws {
        let gotrue = try doubleWithAda()
        let link = try #require(gotrue.recoverySession(for: "ada@example.com"))
        let supabase = await reset(
            gotrue.backend,
            .session(accessToken: Secret(link.accessToken), refreshToken: Secret(link.refreshToken)),
            ScriptedPasswords(["new password 6"]),
            beforeSending: { false }
        )
        #expect(
            supabase.failure == ResetFailure(kind: .temporary, message: "linkd cannot record the reset; nothing sent")
        )
        #expect(gotrue.requestLines == ["GET /auth/v1/user"])
        #expect(gotrue.password(of: "ada@example.com") == "old-password")

        let appServices = try appServicesWithAda()
        let token = appServices.resetToken(for: "ada@example.com")
        let unsent = await reset(
            appServices.backend,
            .init(token: Secret(token.token), tokenID: Secret(token.tokenID)),
            ScriptedPasswords(["new password 6"]),
            beforeSending: { false }
        )
        #expect(unsent.failure?.kind == .temporary)
        #expect(appServices.requests.isEmpty && appServices.password(of: "ada@example.com") == "old-password")
    }
}
