import Foundation
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdTestSupport
import Testing

/// A reset of an account with a second factor (Supabase MFA) against the GoTrue double: the authenticator code is
/// asked for before the password, proved with one challenge and one verify, and the password is set with the AAL2
/// session.
@Suite(.ownThread) struct SecondFactorResetTests {
    static let secret = Array("12345678901234567890".utf8)

    private func reset(_ double: GoTrueDouble) throws -> PasswordReset<SupabaseBackend> {
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        return PasswordReset(
            backend: double.backend,
            material: .session(accessToken: Secret(link.accessToken), refreshToken: Secret(link.refreshToken)),
            appName: "Notes"
        )
    }

    /// A six-digit code the double refuses now (none of the three steps it accepts).
    private func wrongCode(_ double: GoTrueDouble) throws -> String {
        let right = try #require(double.authenticatorCode(for: "ada@example.com"))
        let totp = TOTP(secret: Self.secret)
        let now = Int(Date().timeIntervalSince1970)
        let accepted = Set([-30, 0, 30].map { totp.code(at: now + $0) } + [right])
        return try #require((0..<10).map { String(repeating: String($0), count: 6) }.first { !accepted.contains($0) })
    }

    @Test func theCodeIsAskedBeforeThePasswordAndThePasswordIsSetWithTheAAL2Session() async throws {
        let double = try doubleWithAda()
        double.enrollTOTP(for: "ada@example.com", friendlyName: "Pixel \u{202E}evil", secret: Self.secret)
        let code = try #require(double.authenticatorCode(for: "ada@example.com"))
        let answers = ScriptedPasswords(["correct horse battery"], codes: [code])
        let result = try await reset(double).run(passwords: answers)
        #expect(result == .success(ResetSuccess(account: "a***@example.com", signedOut: true)))
        #expect(double.password(of: "ada@example.com") == "correct horse battery")
        let lines = double.requestLines.map { $0.replacing(/factors\/[0-9a-f-]+\//, with: "factors/ID/") }
        #expect(
            lines == [
                "GET /auth/v1/user", "POST /auth/v1/factors/ID/challenge", "POST /auth/v1/factors/ID/verify",
                "PUT /auth/v1/user", "POST /auth/v1/logout?scope=local",
            ]
        )
        // The password went with the token the verify returned, which says aal2.
        let put = try #require(double.requests.first { $0.method == "PUT" })
        let bearer = try #require(put.header("Authorization")?.dropFirst("Bearer ".count))
        #expect(JWTClaims(Secret(String(bearer)))?.assuranceLevel == "aal2")
        let verify = try #require(double.requests.first { $0.target.hasSuffix("/verify") })
        let body = try #require(verify.jsonBody)
        #expect(body["code"] as? String == code && (body["challenge_id"] as? String)?.isEmpty == false)
        // The factor's name, as the person gave it, is in the question, its direction override taken out.
        #expect(
            answers.askedCodes.withLock { $0.map(\.prompt) } == [
                "Authenticator code for ada@example.com (Notes), from \"Pixel evil\""
            ]
        )
        #expect(answers.asked.withLock { $0.count } == 1)
    }

    @Test func aWrongCodeIsAskedAgainWithTheBackendsWordsAndASourceThatCannotAskEndsIt() async throws {
        let double = try doubleWithAda()
        double.enrollTOTP(for: "ada@example.com", secret: Self.secret)
        let right = try #require(double.authenticatorCode(for: "ada@example.com"))
        let terminal = ScriptedPasswords(["correct horse battery"], codes: [try wrongCode(double), right])
        let result = try await reset(double).run(passwords: terminal)
        #expect(result == .success(ResetSuccess(account: "a***@example.com", signedOut: true)))
        #expect(terminal.askedCodes.withLock { $0.map { $0.rejection?.code } } == [nil, "mfa_verification_failed"])
        #expect(double.requests.filter { $0.target.hasSuffix("/challenge") }.count == 2, "a new challenge per code")

        // An askpass program is not asked again: the refusal ends the reset, in the backend's words.
        let once = ScriptedPasswords(["another good one"], codes: [try wrongCode(double)])
        let refused = try await reset(double).run(passwords: once)
        let failure = try #require(refused.failure, "a wrong code was taken")
        #expect(failure.kind == .refused)
        #expect(
            failure.message == "the code was refused: Invalid TOTP code entered [mfa_verification_failed, HTTP 422]"
        )
        #expect(once.asked.withLock { $0.isEmpty }, "the password is asked only once the factor is proved")
        #expect(double.password(of: "ada@example.com") == "correct horse battery")
    }

    @Test func noCodeCancelsBeforeAnyPasswordIsAskedOrSent() async throws {
        let double = try doubleWithAda()
        double.enrollTOTP(for: "ada@example.com", secret: Self.secret)
        let answers = ScriptedPasswords(["correct horse battery"])
        let result = try await reset(double).run(passwords: answers)
        #expect(result.failure == ResetFailure(kind: .cancelled, message: "no code was given; nothing changed"))
        #expect(answers.asked.withLock { $0.isEmpty })
        #expect(double.requestLines == ["GET /auth/v1/user"])
    }

    @Test func anAccountWithOnlyASecurityKeyIsToldSoBeforeItsPasswordIsAsked() async throws {
        let double = try doubleWithAda()
        double.enrollSecurityKey(for: "ada@example.com")
        let answers = ScriptedPasswords(["correct horse battery"])
        let result = try await reset(double).run(passwords: answers)
        let failure = try #require(result.failure)
        #expect(failure.kind == .refused)
        #expect(failure.message.hasPrefix("the account's second factor (webauthn) is not one linkd can prove"))
        #expect(answers.asked.withLock { $0.isEmpty } && answers.askedCodes.withLock { $0.isEmpty })
        #expect(!double.requests.contains { $0.method == "PUT" })
    }

    /// A factor enrolled after the link's session was looked at: the backend's `insufficient_aal` leads to the code,
    /// and the same password goes again, not asked twice.
    @Test func insufficientAALAfterThePasswordLeadsToTheCodeAndTheSamePasswordAgain() async throws {
        let double = try doubleWithAda()
        let answers = ScriptedPasswords(["correct horse battery"], codes: []) {
            double.enrollTOTP(for: "ada@example.com", secret: Self.secret)
        }
        let withCode = CodeAfterEnrolment(answers, double: double)
        let result = try await reset(double).run(passwords: withCode)
        #expect(result == .success(ResetSuccess(account: "a***@example.com", signedOut: true)))
        let lines = double.requestLines.map { $0.replacing(/factors\/[0-9a-f-]+\//, with: "factors/ID/") }
        #expect(
            lines == [
                "GET /auth/v1/user", "PUT /auth/v1/user", "GET /auth/v1/user", "POST /auth/v1/factors/ID/challenge",
                "POST /auth/v1/factors/ID/verify", "PUT /auth/v1/user", "POST /auth/v1/logout?scope=local",
            ]
        )
        #expect(answers.asked.withLock { $0.count } == 1)
        #expect(double.password(of: "ada@example.com") == "correct horse battery")
    }

    /// Passwords from `answers`, codes from the double's authenticator at the time they are asked.
    private final class CodeAfterEnrolment: PasswordSource {
        let answers: ScriptedPasswords
        let double: GoTrueDouble

        init(_ answers: ScriptedPasswords, double: GoTrueDouble) {
            self.answers = answers
            self.double = double
        }

        func newPassword(prompt: String, rejection: BackendError?) async -> Secret? {
            await answers.newPassword(prompt: prompt, rejection: rejection)
        }

        func code(prompt: String, rejection: BackendError?) async -> Secret? {
            double.authenticatorCode(for: "ada@example.com").map(Secret.init)
        }
    }
}
