import Foundation
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdTestSupport
import Testing

/// The reset-email request against Supabase: the verifier is stored before `POST /recover` goes out, kept when it
/// succeeds, and forgotten when it fails; the link's code resets the password with that verifier only.
@Suite(.ownThread) struct SupabaseBackendTests {
    @Test func aRequestKeepsTheVerifierOfTheChallengeItSentAndItsLinkResetsThePassword() async throws {
        let double = try doubleWithAda()
        try await withTemporaryStore { store in
            try await double.backend.requestNotesReset(store: store)
            let request = try #require(double.requests.first)
            #expect(double.requests.count == 1 && request.method == "POST")
            #expect(request.target == "/auth/v1/recover?redirect_to=com.example.notes%3A%2F%2Freset")
            #expect(request.header("apikey") == GoTrueDouble.apiKey && request.header("Authorization") == nil)
            #expect(request.header("Content-Type") == "application/json")
            let verifier = try #require(store.verifier(for: "com.example.Notes", now: unixNow))
            #expect(
                request.jsonBody as? [String: String] == [
                    "email": "ada@example.com", "code_challenge": PKCE.challenge(for: verifier.value.revealed()),
                    "code_challenge_method": "s256",
                ]
            )
            let code = try #require(double.pkceCode(for: "ada@example.com"))
            let wrong = await PasswordReset(
                backend: double.backend,
                material: .pkce(code: Secret(code), verifier: PKCEVerifier(Secret(PKCE.makeVerifier()))),
                appName: "n"
            ).run(passwords: ScriptedPasswords(["never sent"]))
            #expect(try #require(wrong.failure).message.contains("bad_code_verifier"))
            let result = await PasswordReset(
                backend: double.backend,
                material: .pkce(code: Secret(code), verifier: verifier),
                appName: "n"
            ).run(passwords: ScriptedPasswords(["new password 3"]))
            #expect(try result.get().account == "a***@example.com")
            #expect(double.password(of: "ada@example.com") == "new password 3")
        }
    }

    /// Any `code=` link can be opened: one that is not the email's (a made-up code, or one of a flow someone else
    /// started for their own account) fails its exchange and leaves the verifier for the email's link, which then
    /// resets the password and uses it up.
    @Test func aCodeThatIsNotTheEmailsLeavesTheVerifierForTheEmailsLink() async throws {
        let double = try doubleWithAda()
        double.addUser(email: "mallory@example.com", password: "mallory's")
        try await withTemporaryStore { store in
            try await double.backend.requestNotesReset(store: store)
            try await double.backend.client.recover(
                email: "mallory@example.com",
                redirectTo: "com.example.notes://reset",
                challenge: PKCE.challenge(for: PKCE.makeVerifier())
            )
            let foreign = try #require(double.pkceCode(for: "mallory@example.com"))
            for (code, refusal) in [
                (UUID().uuidString.lowercased(), "flow_state_not_found"), (foreign, "bad_code_verifier"),
            ] {
                let verifier = try #require(store.verifier(for: "com.example.Notes", now: unixNow))
                let unasked = ScriptedPasswords(["never sent"])
                let refused = await PasswordReset(
                    backend: double.backend,
                    material: .pkce(code: Secret(code), verifier: verifier),
                    appName: "com.example.Notes"
                ).run(passwords: unasked)
                #expect(try #require(refused.failure).message.contains(refusal))
                #expect(unasked.asked.withLock { $0.isEmpty })
            }
            let code = try #require(double.pkceCode(for: "ada@example.com"))
            let verifier = try #require(store.verifier(for: "com.example.Notes", now: unixNow))
            let result = await PasswordReset(
                backend: double.backend,
                material: .pkce(code: Secret(code), verifier: verifier),
                appName: "com.example.Notes"
            ).run(passwords: ScriptedPasswords(["new password 8"]))
            #expect(try result.get().account == "a***@example.com")
            #expect(double.password(of: "ada@example.com") == "new password 8")
            #expect(store.verifier(for: "com.example.Notes", now: unixNow) == nil)  // used up by its exchange
        }
    }

    @Test func theVerifierIsStoredBeforeTheRequestAndForgottenWhenItFails() async throws {
        try await withTemporaryStore { store in
            let keptWhenSent = Lock<[String]?>(nil)
            let gateway = try TestHTTPServer { _ in
                keptWhenSent.withLock { $0 = try? FileManager.default.contentsOfDirectory(atPath: store.directory) }
                return .json(503, ["message": "upstream unavailable"])
            }
            let backend = SupabaseBackend(
                client: GoTrueClient(url: gateway.baseURL, apiKey: "k", transport: CurlTransport())
            )
            let failure = await #expect(throws: ResetFailure.self) {
                try await backend.requestNotesReset(store: store)
            }
            #expect(failure?.kind == .temporary)
            #expect(keptWhenSent.withLock { $0?.count } == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).isEmpty)
            #expect(gateway.requests.count == 1)  // a request for an email is not retried
        }
    }

    @Test func aStoreThatCannotBeWrittenSendsNothing() async throws {
        let double = try doubleWithAda()
        let failure = await #expect(throws: ResetFailure.self) {
            try await double.backend.requestNotesReset(store: PKCEStore(stateFolder: "/dev/null/linkd"))
        }
        #expect(failure?.kind == .stateUnwritable)
        #expect(failure?.message == "cannot write /dev/null/linkd: Not a directory; nothing was requested")
        #expect(double.requests.isEmpty)
    }
}
