import Foundation
import LinkdTestSupport
import Testing

/// `linkd login --email ADDR --code`: the magic-link email's 6-digit code, typed where linkd asks for it (an askpass
/// program here), signs in as the email's link would: the app's program gets the session, never the code.
@Suite(.ownThread) struct SignInCodeTests {
    /// Runs `linkd login --code` with an askpass program that answers with the code the double mailed, once it has.
    private func login(_ world: SignInTests.World, code: (String) -> String = { $0 }) throws -> (Int32, String, String)
    {
        let codeFile = world.world.root.appendingPathComponent("code.txt")
        let askpass = try world.world.script(
            "askpass-code.sh",
            """
            n=0; until [ -s \(codeFile.path) ]; do sleep 0.05; n=$((n+1)); [ $n -gt 400 ] && exit 1; done
            cat \(codeFile.path)

            """
        )
        let out = world.world.root.appendingPathComponent("login-out.txt")
        let err = world.world.root.appendingPathComponent("login-err.txt")
        let process = try world.world.start(
            ["login", "--app", SignInTests.app, "--email", SignInTests.email, "--code"],
            extra: ["LINKD_ASKPASS": askpass.path],
            stdoutPath: out.path,
            stderrPath: err.path
        )
        _ = world.world.waitUntil(.seconds(10)) { world.gotrue.emailedCode(for: SignInTests.email) != nil }
        let mailed = world.gotrue.emailedCode(for: SignInTests.email) ?? ""
        try Data((code(mailed) + "\n").utf8).write(to: codeFile)
        process.waitUntilExit()
        return (
            process.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        )
    }

    @Test func theEmailsCodeSignsInAndTheProgramGetsTheSession() throws {
        let world = try SignInTests.World()
        let (status, stdout, stderr) = try login(world)
        #expect(status == 0, "\(stdout)\(stderr)\n\(world.world.daemonLog())")
        #expect(
            stdout == """
                requested: a sign-in email for com.example.SignIn is on its way to a***@example.com.
                done: signed in: com.example.SignIn as ada@example.com

                """
        )
        #expect(world.world.waitUntil(.seconds(10)) { world.world.receivedPayloads().count == 1 })
        let session = try #require(world.world.receivedPayloads().first?["session"] as? [String: Any])
        let accessToken = try #require(session["access_token"] as? String)
        #expect(world.gotrue.isSessionLive(accessToken: accessToken))
        let verify = try #require(world.gotrue.requests.first { $0.path == "/auth/v1/verify" }?.jsonBody)
        #expect(verify["type"] as? String == "email" && verify["email"] as? String == SignInTests.email)
        #expect(!world.leakSurfaces().contains(accessToken))
        // The code and the email's link are one token: the link is dead now.
        #expect(world.gotrue.magicLinkRedirect(for: SignInTests.email) == nil)
    }

    @Test func aWrongCodeSignsNoOneIn() throws {
        let world = try SignInTests.World()
        let (status, stdout, stderr) = try login(world) { $0 == "000000" ? "111111" : "000000" }
        #expect(status == 65, "\(stdout)\(stderr)")
        #expect(stderr == "Error: the code was refused: Token has expired or is invalid [otp_expired, HTTP 403]\n")
        #expect(world.world.receivedPayloads().isEmpty)
        #expect(world.gotrue.liveSessionCount(for: SignInTests.email) == 0)
    }
}
