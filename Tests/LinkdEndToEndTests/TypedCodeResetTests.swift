import Foundation
import LinkdTestSupport
import Testing

/// `linkd reset --code`: the reset email's 6-digit code, typed, does what its link would (GoTrue's `POST /verify`
/// with the address, the code and `type: recovery`), for a link a scanner burned or an email read on a phone.
@Suite(.ownThread) struct TypedCodeResetTests {
    static let password = "Canary-pass-code-93"
    static let email = "ada@example.com"

    private func request(_ reset: ResetWorld) throws -> LinkdProcess.Output {
        try reset.world.run(["reset", "request", "--app", ResetWorld.app, "--email", Self.email])
    }

    private func resetWithCode(_ reset: ResetWorld, stdin: String, _ extra: [String] = []) throws -> LinkdProcess.Output
    {
        try reset.world.run(
            ["reset", "--code", "--app", ResetWorld.app, "--email", Self.email, "--code-stdin", "--password-stdin"]
                + extra,
            stdin: Data(stdin.utf8)
        )
    }

    @Test func theRequestSaysTheCodeWorksAndTheCodeResetsAsTheLinkWould() throws {
        let reset = try ResetWorld(emailCodes: true)
        let requested = try request(reset)
        #expect(requested.status == 0, "\(requested)")
        #expect(
            requested.stdout
                == "requested: if a***@example.com has an account with com.example.Reset, a reset email is on its way; "
                + "open its link here, or type the code it carries: linkd reset --code --app com.example.Reset "
                + "--email ada@example.com.\n"
        )
        let code = try #require(reset.gotrue.emailedCode(for: Self.email))
        let linkCode = try #require(reset.gotrue.pkceCode(for: Self.email))
        let result = try resetWithCode(reset, stdin: "\(code)\n\(Self.password)\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "done: com.example.Reset: the password of a***@example.com was changed\n")
        #expect(reset.gotrue.password(of: Self.email) == Self.password)
        #expect(
            reset.gotrue.requestLines.dropFirst() == [
                "POST /auth/v1/verify", "GET /auth/v1/user", "PUT /auth/v1/user", "POST /auth/v1/logout?scope=local",
            ]
        )
        let verify = try #require(reset.gotrue.requests.first { $0.path == "/auth/v1/verify" }?.jsonBody)
        #expect(verify as NSDictionary == ["email": Self.email, "token": code, "type": "recovery"] as NSDictionary)
        // The code and the email's link are one token: the link is dead now.
        let link = try reset.open("resetapp://reset?code=\(linkCode)", password: "another-password")
        #expect(link.status == 65, "\(link)")
        #expect(link.stderr.hasSuffix("[link_expired]\n"))
        #expect(!(result.stdout + result.stderr + reset.leakSurfaces()).contains(code))
    }

    @Test func aWrongCodeIsRefusedInTheBackendsWordsAndNothingChanges() throws {
        let reset = try ResetWorld(emailCodes: true)
        #expect(try request(reset).status == 0)
        let right = try #require(reset.gotrue.emailedCode(for: Self.email))
        let wrong = right == "000000" ? "111111" : "000000"
        let result = try resetWithCode(reset, stdin: "\(wrong)\n\(Self.password)\n")
        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr == "Error: the code was refused: Token has expired or is invalid [otp_expired, HTTP 403]\n"
        )
        #expect(reset.gotrue.password(of: Self.email) == "old-password")
        #expect(!reset.gotrue.requests.contains { $0.method == "PUT" })
    }

    @Test func onATerminalAWrongCodeIsAskedAgain() throws {
        let reset = try ResetWorld(emailCodes: true)
        #expect(try request(reset).status == 0)
        let right = try #require(reset.gotrue.emailedCode(for: Self.email))
        let wrong = right == "000000" ? "111111" : "000000"
        let (shown, status, problems) = try reset.runOnTerminal(
            ["reset", "--code", "--app", ResetWorld.app, "--email", Self.email],
            typing: [
                ("Code from the reset email", 1, wrong), ("Code from the reset email", 2, right),
                ("New password for", 1, Self.password), ("Repeat the new password", 1, Self.password),
            ]
        )
        #expect(status == 0, "\(shown)\n\(problems)")
        #expect(
            shown == """
                Code from the reset email for ada@example.com (com.example.Reset): 
                the code was refused: Token has expired or is invalid [otp_expired, HTTP 403]
                Code from the reset email for ada@example.com (com.example.Reset): 
                New password for ada@example.com (com.example.Reset): 
                Repeat the new password: 
                done: com.example.Reset: the password of a***@example.com was changed

                """
        )
        #expect(reset.gotrue.password(of: Self.email) == Self.password)
    }

    @Test func anMFAAccountGivesTheEmailsCodeThenTheAuthenticatorsThenThePassword() throws {
        let reset = try ResetWorld(emailCodes: true)
        reset.gotrue.enrollTOTP(for: Self.email, secret: Array("12345678901234567890".utf8))
        #expect(try request(reset).status == 0)
        let code = try #require(reset.gotrue.emailedCode(for: Self.email))
        let authenticator = try #require(reset.gotrue.authenticatorCode(for: Self.email))
        let result = try resetWithCode(reset, stdin: "\(code)\n\(authenticator)\n\(Self.password)\n")
        #expect(result.status == 0, "\(result)")
        #expect(reset.gotrue.password(of: Self.email) == Self.password)
        #expect(reset.gotrue.requests.filter { $0.path.hasSuffix("/verify") }.count == 2)
    }

    @Test func usageErrorsAndAnAppServicesApp() throws {
        let reset = try ResetWorld()
        let both = try reset.world.run(["reset", "request", "--code", "--app", ResetWorld.app, "--email", Self.email])
        #expect(both.status == 64 && both.stderr.hasPrefix("Error: "), "\(both)")
        let neither = try reset.world.run(["reset", "--app", ResetWorld.app, "--email", Self.email])
        #expect(neither.status == 64, "\(neither)")
        #expect(neither.stderr.hasPrefix("Error: missing expected argument 'request or --code'\n"), "\(neither)")
        // Without "emailCodes" the request says nothing of a code.
        #expect(try request(reset).stdout.hasSuffix("open its link here.\n"))

        let config = """
            {"app": "com.example.Notes", "links": [
              {"match": "https://notes.example.com/reset", "format": "appservices", "action": "reset"}],
             "backend": {"kind": "appservices", "url": "\(reset.appServices.baseURL)", "appId": "\(AppServicesDouble.appID)"}}
            """
        try Data(config.utf8).write(to: reset.world.config.appendingPathComponent("linkd/apps.d/notes.json"))
        let services = try reset.world.run(["reset", "--code", "--app", "com.example.Notes", "--email", Self.email])
        #expect(services.status == 64, "\(services)")
        #expect(
            services.stderr
                == "Error: com.example.Notes has no Supabase backend to reset with a code (App Services emails links, "
                + "not codes)\n"
        )
    }
}
