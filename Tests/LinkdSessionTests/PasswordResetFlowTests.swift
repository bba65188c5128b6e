import Foundation
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdTestSupport
import Synchronization
import Testing

/// The whole reset against the doubles: which requests go out in which order, which are retried, and how each
/// refusal ends.
@Suite(.ownThread) struct PasswordResetFlowTests {
    /// A reset of the recovery session `link` against `double`, for the app `n`.
    private func recovery(
        _ double: GoTrueDouble,
        _ link: (accessToken: String, refreshToken: String),
        beforeSending: @escaping @Sendable () async -> Bool = { true }
    ) -> PasswordReset<SupabaseBackend> {
        PasswordReset(
            backend: double.backend,
            material: .session(accessToken: Secret(link.accessToken), refreshToken: Secret(link.refreshToken)),
            appName: "n",
            beforeSending: beforeSending
        )
    }

    @Test func aUsedRecoveryLinkFailsTheSecondTimeAndSendsNoSecondPassword() async throws {
        let double = try doubleWithAda()
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let sent = Atomic<Int>(0)
        let reset = recovery(double, link) {
            sent.add(1, ordering: .relaxed)
            return true
        }
        let result = await reset.run(passwords: ScriptedPasswords(["correct horse battery"]))
        #expect(result == .success(ResetSuccess(account: "a***@example.com", signedOut: true)))
        #expect(sent.load(ordering: .relaxed) == 1)
        let again = await reset.run(passwords: ScriptedPasswords(["another password"]))
        let failure = try #require(again.failure, "a used link worked again")
        #expect(failure.kind == .linkExpiredOrUsed)
        #expect(failure.message.hasPrefix("this link has expired or was already used; request a new email ("))
        #expect(double.requests.filter { $0.method == "PUT" }.count == 1)
    }

    @Test func aWeakPasswordIsAskedAgainWithTheReasonsAndASourceThatCannotAskEndsIt() async throws {
        let double = try doubleWithAda()
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let terminal = ScriptedPasswords(["abc", "old-password", "a much better one"])
        let result = await recovery(double, link).run(passwords: terminal)
        #expect(result == .success(ResetSuccess(account: "a***@example.com", signedOut: true)))
        let refusals = terminal.asked.withLock { $0.map { $0.rejection?.code } }
        #expect(refusals == [nil, "weak_password", "same_password"])
        #expect(terminal.asked.withLock { $0[1].rejection?.reasons } == ["length"])

        let other = try #require(double.recoverySession(for: "ada@example.com"))
        let refused = await recovery(double, other).run(passwords: ScriptedPasswords(["abc"]))
        let failure = try #require(refused.failure, "a weak password was taken")
        #expect(failure.kind == .passwordRejected)
        #expect(failure.message.contains("(reasons: length)") && failure.message.contains("weak_password"))
        #expect(double.password(of: "ada@example.com") == "a much better one")
    }

    @Test func aSourceThatKeepsGivingRefusedPasswordsIsStoppedAfterFive() async throws {
        let double = try doubleWithAda()
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let stubborn = ScriptedPasswords(Array(repeating: "abc", count: 7))
        let result = await recovery(double, link).run(passwords: stubborn)
        let failure = try #require(result.failure, "a weak password was taken")
        #expect(failure.kind == .passwordRejected && failure.message.contains("weak_password"))
        #expect(stubborn.asked.withLock { $0.count } == 5)
        #expect(double.requests.filter { $0.method == "PUT" }.count == 5)
    }

    @Test func anExpiredAccessTokenIsRefreshedBeforeThePasswordIsSet() async throws {
        let double = try doubleWithAda()
        let link = try #require(double.recoverySession(for: "ada@example.com", expiresIn: 10))
        double.advanceClock(by: 60)  // expired by the backend's clock only: GET /user says bad_jwt
        let result = await recovery(double, link).run(passwords: ScriptedPasswords(["new password 1"]))
        #expect(try result.get().account == "a***@example.com")
        #expect(
            double.requestLines == [
                "GET /auth/v1/user", "POST /auth/v1/token?grant_type=refresh_token", "PUT /auth/v1/user",
                "POST /auth/v1/logout?scope=local",
            ]
        )
        #expect(double.password(of: "ada@example.com") == "new password 1")
    }

    @Test func requestsBeforeThePasswordAreRetriedAndThePasswordRequestNever() async throws {
        let double = try doubleWithAda()
        let hash = try #require(double.recoveryTokenHash(for: "ada@example.com"))
        double.failNext(2, status: 503)
        let reset = PasswordReset(
            backend: double.backend,
            material: .tokenHash(Secret(hash), type: "recovery"),
            appName: "n"
        )
        let started = ContinuousClock.now
        // The PUT comes after the two failed verifies and the good one: it fails once.
        let passwords = ScriptedPasswords(["new password 2"]) { double.failNext(1, status: 503) }
        let result = await reset.run(passwords: passwords)
        #expect(ContinuousClock.now - started >= .milliseconds(1500))  // waited 0.5 s and 1 s between attempts
        let failure = try #require(result.failure, "a failed PUT counted as success")
        #expect(failure.kind == .temporary)
        #expect(
            double.requests.map { "\($0.method) \($0.path)" } == [
                "POST /auth/v1/verify", "POST /auth/v1/verify", "POST /auth/v1/verify", "PUT /auth/v1/user",
            ]
        )
        #expect(double.password(of: "ada@example.com") == "old-password")
    }

    @Test func aBackendThatIsDownOrKeepsFailingEndsAsTemporaryOrUnreachable() async throws {
        let double = try doubleWithAda()
        let hash = try #require(double.recoveryTokenHash(for: "ada@example.com"))
        double.failNext(3, status: 502)
        let failing = await PasswordReset(
            backend: double.backend,
            material: .tokenHash(Secret(hash), type: "recovery"),
            appName: "n"
        ).run(passwords: ScriptedPasswords(["never sent"]))
        let temporary = try #require(failing.failure)
        #expect(temporary.kind == .temporary)
        #expect(double.requests.count == 3)

        let closed = try TestHTTPServer { _ in .json(200, [:]) }
        let url = closed.baseURL
        closed.stop()
        let down = await PasswordReset(
            backend: SupabaseBackend(client: GoTrueClient(url: url, apiKey: "k", transport: CurlTransport())),
            material: .tokenHash(Secret(hash), type: "recovery"),
            appName: "n"
        ).run(passwords: ScriptedPasswords(["never sent"]))
        let failure = try #require(down.failure, "a closed port answered")
        #expect(failure.kind == .unreachable)
        #expect(failure.message == "the backend '127.0.0.1' cannot be reached: the connection was refused")
    }

    @Test func aUsedAppServicesTokenFailsTheSecondTime() async throws {
        let double = try appServicesWithAda()
        let link = double.resetToken(for: "ada@example.com")
        let reset = PasswordReset(
            backend: double.backend,
            material: .init(token: Secret(link.token), tokenID: Secret(link.tokenID)),
            appName: "com.example.Notes"
        )
        #expect(
            try await reset.run(passwords: ScriptedPasswords(["new password 4"])).get().account
                == "your com.example.Notes account"
        )
        #expect(double.password(of: "ada@example.com") == "new password 4")
        let again = await reset.run(passwords: ScriptedPasswords(["new password 5"]))
        let failure = try #require(again.failure, "a used token worked again")
        #expect(failure.kind == .linkExpiredOrUsed && failure.message.contains("UserpassTokenInvalid"))
    }

    @Test func noPasswordEndsTheResetAsCancelledWithNothingSent() async throws {
        let double = try doubleWithAda()
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let cancelled = await recovery(double, link).run(passwords: ScriptedPasswords([]))
        #expect(cancelled.failure?.kind == .cancelled)
        #expect(double.requests.allSatisfy { $0.method == "GET" })
        #expect(double.password(of: "ada@example.com") == "old-password")
    }
}
