import Foundation
import LinkdTestSupport
import Testing

/// A reset of an account with a second factor (Supabase MFA) end to end: a clicked link, the daemon, `linkd open`
/// asking for the authenticator code before the password (askpass, terminal, standard input), the GoTrue double.
@Suite(.ownThread) struct SecondFactorResetTests {
    static let password = "Canary-pass-mfa-41"
    static let secret = Array("12345678901234567890".utf8)

    private func world() throws -> ResetWorld {
        let reset = try ResetWorld()
        reset.gotrue.enrollTOTP(for: "ada@example.com", friendlyName: "Phone", secret: Self.secret)
        return reset
    }

    private func factorLines(_ reset: ResetWorld) -> [String] {
        reset.gotrue.requestLines.map { $0.replacing(/factors\/[0-9a-f-]+\//, with: "factors/ID/") }
    }

    @Test func askpassAnswersTheCodeThenThePasswordAndNeitherLeaks() throws {
        let reset = try world()
        let code = try #require(reset.gotrue.authenticatorCode(for: "ada@example.com"))
        let seen = reset.world.root.appendingPathComponent("askpass-argv.txt")
        let askpass = try reset.script(
            "askpass.sh",
            """
            printf '%s\\n' "$*" >> \(seen.path)
            case "$*" in *"Authenticator code"*) echo \(code) ;; *) echo \(Self.password) ;; esac

            """
        )
        let link = try reset.recoveryLink()
        let result = try reset.world.run(["open", link.url], extra: ["LINKD_ASKPASS": askpass.path])
        #expect(result.status == 0, "\(result)\n\(reset.world.daemonLog())")
        #expect(
            result.stdout
                == "done: supabase.recovery → com.example.Reset: the password of a***@example.com was changed\n"
        )
        #expect(
            try String(contentsOf: seen, encoding: .utf8) == """
                linkd: Authenticator code for ada@example.com (com.example.Reset), from &quot;Phone&quot;
                linkd: New password for ada@example.com (com.example.Reset)

                """
        )
        #expect(
            factorLines(reset) == [
                "GET /auth/v1/user", "POST /auth/v1/factors/ID/challenge", "POST /auth/v1/factors/ID/verify",
                "PUT /auth/v1/user", "POST /auth/v1/logout?scope=local",
            ]
        )
        #expect(reset.gotrue.password(of: "ada@example.com") == Self.password)
        let surfaces = reset.leakSurfaces() + result.stdout + result.stderr
        #expect(surfaces.contains("the password of a***@example.com was changed"))  // the log was read
        for secret in [code, Self.password, link.accessToken, link.refreshToken] {
            #expect(!surfaces.contains(secret), "leaked: \(secret.prefix(12))…")
        }
    }

    @Test func standardInputGivesTheCodeThenThePasswordOneLineEach() throws {
        let reset = try world()
        let code = try #require(reset.gotrue.authenticatorCode(for: "ada@example.com"))
        let link = try reset.recoveryLink()
        let result = try reset.world.run(
            ["open", "--code-stdin", "--password-stdin", link.url],
            stdin: Data("\(code)\n\(Self.password)\n".utf8)
        )
        #expect(result.status == 0, "\(result)\n\(reset.world.daemonLog())")
        #expect(reset.gotrue.password(of: "ada@example.com") == Self.password)

        // Without --code-stdin, and with no askpass program, the code cannot be asked: nothing is set.
        let other = try reset.recoveryLink()
        let refused = try reset.world.run(
            ["open", "--password-stdin", other.url],
            stdin: Data("another-password\n".utf8),
            extra: ["PATH": "/nonexistent", "LINKD_ASKPASS": ""]
        )
        #expect(refused.status == 75, "\(refused)")
        #expect(refused.stderr == "Error: link 1: no code was given; nothing changed [cancelled]\n")
        #expect(reset.gotrue.password(of: "ada@example.com") == Self.password)
    }

    @Test func onATerminalAWrongCodeIsAskedAgainWithTheBackendsWords() throws {
        let reset = try world()
        let right = try #require(reset.gotrue.authenticatorCode(for: "ada@example.com"))
        let totp = TOTP(secret: Self.secret)
        let now = Int(Date().timeIntervalSince1970)
        let accepted = Set([-30, 0, 30, 60].map { totp.code(at: now + $0) })
        let wrong = try #require(
            (0..<10).map { String(repeating: String($0), count: 6) }.first { !accepted.contains($0) }
        )
        let link = try reset.recoveryLink()
        let (shown, status, problems) = try reset.openOnTerminal(
            link.url,
            typing: [
                ("Authenticator code for", 1, wrong), ("Authenticator code for", 2, right),
                ("New password for", 1, Self.password), ("Repeat the new password", 1, Self.password),
            ]
        )
        #expect(status == 0, "\(shown)\n\(problems)\n\(reset.world.daemonLog())")
        #expect(
            shown == """
                Authenticator code for ada@example.com (com.example.Reset), from "Phone": 
                the code was refused: Invalid TOTP code entered [mfa_verification_failed, HTTP 422]
                Authenticator code for ada@example.com (com.example.Reset), from "Phone": 
                New password for ada@example.com (com.example.Reset): 
                Repeat the new password: 
                done: supabase.recovery → com.example.Reset: the password of a***@example.com was changed

                """
        )
        #expect(!shown.contains(right) && !shown.contains(wrong), "a code typed without echo showed")
        #expect(reset.gotrue.requests.filter { $0.target.hasSuffix("/verify") }.count == 2)
        #expect(reset.gotrue.requests.filter { $0.method == "PUT" }.count == 1)
        #expect(reset.gotrue.password(of: "ada@example.com") == Self.password)
    }
}
