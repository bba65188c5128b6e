import Foundation
import LinkdFormats
import LinkdSession
import LinkdTestSupport
import Synchronization
import Testing

/// The whole reset against the doubles: which requests go out in which order, which are retried, and how each
/// refusal ends.
@Suite struct ResetRunnerTests {
    private func supabase(_ double: GoTrueDouble) -> ResetBackend {
        .supabase(double.backend.client)
    }

    @Test func aRecoveryLinkChangesThePasswordAndSignsTheLinksSessionOut() async throws {
        let double = try doubleWithAda()
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let sent = Atomic<Int>(0)
        let runner = ResetRunner(
            backend: supabase(double),
            material: .supabaseSession(accessToken: Secret(link.accessToken), refreshToken: Secret(link.refreshToken)),
            appName: "com.example.Notes",
            beforeSending: {
                sent.add(1, ordering: .relaxed)
                return true
            }
        )
        let passwords = ScriptedPasswords(["correct horse battery"])
        let result = await runner.run(passwords: passwords)
        #expect(result == .success(ResetRunner.Success(account: "a***@example.com", signedOut: true)))
        #expect(double.password(of: "ada@example.com") == "correct horse battery")
        #expect(passwords.asked.withLock { $0.map(\.prompt) } == ["New password for a***@example.com"])
        #expect(sent.load(ordering: .relaxed) == 1)
        #expect(
            double.requestLines == [
                "GET /auth/v1/user", "PUT /auth/v1/user", "POST /auth/v1/logout?scope=local",
            ]
        )
        let again = await runner.run(passwords: ScriptedPasswords(["another password"]))
        guard case .failure(let failure) = again else {
            Issue.record("a used link worked again")
            return
        }
        #expect(failure.kind == .linkExpiredOrUsed && failure.exitCode == 65)
        #expect(failure.message.hasPrefix("this link has expired or was already used; request a new email ("))
        #expect(double.requests.filter { $0.method == "PUT" }.count == 1)
    }

    @Test func aWeakPasswordIsAskedAgainWithTheReasonsAndASourceThatCannotAskEndsIt() async throws {
        let double = try doubleWithAda()
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let material = ResetMaterial.supabaseSession(
            accessToken: Secret(link.accessToken),
            refreshToken: Secret(link.refreshToken)
        )
        let terminal = ScriptedPasswords(["abc", "old-password", "a much better one"])
        let result = await ResetRunner(backend: supabase(double), material: material, appName: "n").run(
            passwords: terminal
        )
        #expect(result == .success(ResetRunner.Success(account: "a***@example.com", signedOut: true)))
        let refusals = terminal.asked.withLock { $0.map { $0.rejection?.code } }
        #expect(refusals == [nil, "weak_password", "same_password"])
        #expect(terminal.asked.withLock { $0[1].rejection?.reasons } == ["length"])

        let other = try #require(double.recoverySession(for: "ada@example.com"))
        let once = ScriptedPasswords(["abc"])
        let refused = await ResetRunner(
            backend: supabase(double),
            material: .supabaseSession(
                accessToken: Secret(other.accessToken),
                refreshToken: Secret(other.refreshToken)
            ),
            appName: "n"
        ).run(passwords: once)
        guard case .failure(let failure) = refused else {
            Issue.record("a weak password was taken")
            return
        }
        #expect(failure.kind == .passwordRejected && failure.exitCode == 65)
        #expect(failure.message.contains("(reasons: length)") && failure.message.contains("weak_password"))
        #expect(double.password(of: "ada@example.com") == "a much better one")
    }

    @Test func aSourceThatKeepsGivingRefusedPasswordsIsStoppedAfterFive() async throws {
        let double = try doubleWithAda()
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let stubborn = ScriptedPasswords(Array(repeating: "abc", count: 7))
        let result = await ResetRunner(
            backend: supabase(double),
            material: .supabaseSession(accessToken: Secret(link.accessToken), refreshToken: Secret(link.refreshToken)),
            appName: "n"
        ).run(passwords: stubborn)
        guard case .failure(let failure) = result else {
            Issue.record("a weak password was taken")
            return
        }
        #expect(failure.kind == .passwordRejected && failure.message.contains("weak_password"))
        #expect(stubborn.asked.withLock { $0.count } == 5)
        #expect(double.requests.filter { $0.method == "PUT" }.count == 5)
    }

    @Test func anExpiredAccessTokenIsRefreshedBeforeThePasswordIsSet() async throws {
        let double = try doubleWithAda()
        let link = try #require(double.recoverySession(for: "ada@example.com", expiresIn: 10))
        double.advanceClock(by: 60)  // expired by the backend's clock only: GET /user says bad_jwt
        let runner = ResetRunner(
            backend: supabase(double),
            material: .supabaseSession(accessToken: Secret(link.accessToken), refreshToken: Secret(link.refreshToken)),
            appName: "n"
        )
        #expect(
            try await runner.run(passwords: ScriptedPasswords(["new password 1"])).get().account == "a***@example.com"
        )
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
        let runner = ResetRunner(
            backend: supabase(double),
            material: .supabaseTokenHash(Secret(hash), type: "recovery"),
            appName: "n"
        )
        let started = ContinuousClock.now
        // The PUT comes after the two failed verifies and the good one: it fails once.
        let passwords = ScriptedPasswords(["new password 2"]) { double.failNext(1, status: 503) }
        let result = await runner.run(passwords: passwords)
        #expect(ContinuousClock.now - started >= .milliseconds(1500))  // waited 0.5 s and 1 s between attempts
        guard case .failure(let failure) = result else {
            Issue.record("a failed PUT counted as success")
            return
        }
        #expect(failure.kind == .temporary && failure.exitCode == 75)
        #expect(
            double.requests.map { "\($0.method) \($0.path)" } == [
                "POST /auth/v1/verify", "POST /auth/v1/verify", "POST /auth/v1/verify", "PUT /auth/v1/user",
            ]
        )
        #expect(double.password(of: "ada@example.com") == "old-password")
    }

    @Test func aBackendThatIsDownOrKeepsFailingEndsWithItsExitCode() async throws {
        let double = try doubleWithAda()
        let hash = try #require(double.recoveryTokenHash(for: "ada@example.com"))
        double.failNext(3, status: 502)
        let failing = await ResetRunner(
            backend: supabase(double),
            material: .supabaseTokenHash(Secret(hash), type: "recovery"),
            appName: "n"
        ).run(passwords: ScriptedPasswords(["never sent"]))
        #expect((try? failing.get()) == nil)
        if case .failure(let failure) = failing { #expect(failure.kind == .temporary && failure.exitCode == 75) }
        #expect(double.requests.count == 3)

        let closed = try TestHTTPServer { _ in .json(200, [:]) }
        let url = closed.baseURL
        closed.stop()
        let down = await ResetRunner(
            backend: .supabase(GoTrueClient(url: url, apiKey: "k", transport: CurlTransport())),
            material: .supabaseTokenHash(Secret(hash), type: "recovery"),
            appName: "n"
        ).run(passwords: ScriptedPasswords(["never sent"]))
        guard case .failure(let failure) = down else {
            Issue.record("a closed port answered")
            return
        }
        #expect(failure.kind == .unreachable && failure.exitCode == 69)
        #expect(failure.message == "the backend cannot be reached: the connection was refused")
    }

    @Test func thePKCELoopFromTheRequestToTheChangedPassword() async throws {
        let double = try doubleWithAda()
        let client = GoTrueClient(url: double.baseURL, apiKey: GoTrueDouble.apiKey, transport: CurlTransport())
        let verifier = PKCE.makeVerifier()
        try await client.recover(
            email: "ada@example.com",
            redirectTo: "com.example.notes://reset",
            challenge: PKCE.challenge(for: verifier)
        )
        #expect(double.requests[0].target == "/auth/v1/recover?redirect_to=com.example.notes%3A%2F%2Freset")
        let code = try #require(double.pkceCode(for: "ada@example.com"))
        let wrong = await ResetRunner(
            backend: .supabase(client),
            material: .supabasePKCE(code: Secret(code), verifier: Secret(PKCE.makeVerifier())),
            appName: "n"
        ).run(passwords: ScriptedPasswords(["never sent"]))
        if case .failure(let failure) = wrong { #expect(failure.message.contains("bad_code_verifier")) }
        let result = await ResetRunner(
            backend: .supabase(client),
            material: .supabasePKCE(code: Secret(code), verifier: Secret(verifier)),
            appName: "n"
        ).run(passwords: ScriptedPasswords(["new password 3"]))
        #expect(try result.get().account == "a***@example.com")
        #expect(double.password(of: "ada@example.com") == "new password 3")
    }

    @Test func anAppServicesResetUsesTheLinksTokenOnce() async throws {
        let double = try AppServicesDouble()
        double.addUser(email: "ada@example.com", password: "old-password")
        let link = double.resetToken(for: "ada@example.com")
        let runner = ResetRunner(
            backend: .appServices(
                AppServicesClient(url: double.baseURL, appID: AppServicesDouble.appID, transport: CurlTransport())
            ),
            material: .appServices(token: Secret(link.token), tokenID: Secret(link.tokenID)),
            appName: "com.example.Notes"
        )
        let passwords = ScriptedPasswords(["new password 4"])
        #expect(try await runner.run(passwords: passwords).get().account == "your com.example.Notes account")
        #expect(double.password(of: "ada@example.com") == "new password 4")
        let again = await runner.run(passwords: ScriptedPasswords(["new password 5"]))
        guard case .failure(let failure) = again else {
            Issue.record("a used token worked again")
            return
        }
        #expect(failure.kind == .linkExpiredOrUsed && failure.message.contains("UserpassTokenInvalid"))
    }

    @Test func nothingIsSentWhenTheSendCannotBeRecordedOrNoPasswordComes() async throws {
        let double = try doubleWithAda()
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let material = ResetMaterial.supabaseSession(
            accessToken: Secret(link.accessToken),
            refreshToken: Secret(link.refreshToken)
        )
        let unrecorded = await ResetRunner(backend: supabase(double), material: material, appName: "n") { false }
            .run(passwords: ScriptedPasswords(["new password 6"]))
        let cancelled = await ResetRunner(backend: supabase(double), material: material, appName: "n")
            .run(passwords: ScriptedPasswords([]))
        #expect((try? unrecorded.get()) == nil && (try? cancelled.get()) == nil)
        if case .failure(let failure) = cancelled { #expect(failure.kind == .cancelled) }
        #expect(double.requests.allSatisfy { $0.method == "GET" })
        #expect(double.password(of: "ada@example.com") == "old-password")
    }
}

/// SHA-256 and the S256 challenge against published vectors.
@Suite struct PKCETests {
    @Test func theChallengeOfRFC7636AppendixB() {
        #expect(
            PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        )
    }

    @Test func verifiersAreFortyThreeUnreservedCharactersAndDiffer() {
        let first = PKCE.makeVerifier()
        #expect(first.count == 43 && first.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || (0x30...0x7A).contains($0) })
        #expect(first != PKCE.makeVerifier())
    }

    @Test func aStoredVerifierIsTakenOnceAndNotAfterItExpires() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "pkce-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = PKCEStore(directory: directory + "/linkd/pkce")
        try store.store(Secret("verifier-one"), app: "../com.example.Notes", now: 1000)
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory)
        #expect(names == ["2e2e2f636f6d2e6578616d706c652e4e6f746573"])
        let attributes = try FileManager.default.attributesOfItem(atPath: store.directory + "/" + names[0])
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: store.directory)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        #expect(store.take(app: "../com.example.Notes", now: 1001)?.revealed() == "verifier-one")
        #expect(store.take(app: "../com.example.Notes", now: 1002) == nil)
        try store.store(Secret("verifier-two"), app: "a", now: 1000)
        #expect(store.take(app: "a", now: 1000 + PKCEStore.lifetime) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).isEmpty)
        // Storing one sweeps the verifiers of flows that have expired.
        try store.store(Secret("verifier-three"), app: "b", now: 1000)
        try store.store(Secret("verifier-four"), app: "c", now: 1000 + PKCEStore.lifetime)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory) == ["63"])  // "c", hex-encoded
    }
}
