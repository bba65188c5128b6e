import Foundation
import LinkdTestSupport
import Testing

/// Reset links someone else made, end to end through `linkd open` and its daemon: a session signed in by password
/// and mailed as a recovery link, `code=` links that are not the email's, and a backend whose errors quote the
/// request.
@Suite(.ownThread) struct ResetAttackTests {
    /// The attacker signs in to a look-alike account of their own and mails the session as a recovery link: refused
    /// before any password is asked, and nothing is sent with one.
    @Test func aPasswordSessionMailedAsARecoveryLinkIsRefusedBeforeAnyPasswordIsAsked() throws {
        let reset = try ResetWorld()
        reset.gotrue.addUser(email: "ada@examp1e.com", password: "attacker's")
        let session = try #require(reset.gotrue.signedInSession(for: "ada@examp1e.com"))
        let askpass = try reset.recordingAskpass("asked.txt", then: "echo \(ResetTests.password)")
        let link = ResetWorld.mailedLink(accessToken: session.accessToken, refreshToken: session.refreshToken)
        let result = try reset.world.run(["open", link], extra: ["LINKD_ASKPASS": askpass.program.path])
        #expect(result.status == 65, "\(result)\n\(reset.world.daemonLog())")
        #expect(
            result.stderr
                == "Error: link 1: the backend's token says this session was signed in by password, not by an emailed "
                + "link; linkd resets a password only with a session made by a reset email [not_a_reset]\n"
        )
        #expect(!FileManager.default.fileExists(atPath: askpass.record.path))
        #expect(reset.gotrue.requestLines == ["GET /auth/v1/user"])
        #expect(reset.gotrue.password(of: "ada@examp1e.com") == "attacker's")
        let surfaces = reset.leakSurfaces() + result.stdout + result.stderr
        for secret in [session.accessToken, session.refreshToken] { #expect(!surfaces.contains(secret)) }
    }

    /// A `code=` link that is not the email's fails its exchange and leaves the stored verifier for the email's
    /// link, which then resets the password.
    @Test func aForeignCodeLinkLeavesTheVerifierForTheEmailsLink() throws {
        let reset = try ResetWorld()
        let request = try reset.world.run(["reset", "request", "--app", ResetWorld.app, "--email", "ada@example.com"])
        #expect(request.status == 0, "\(request)")
        let foreign = try reset.open("resetapp://reset?code=\(UUID().uuidString.lowercased())", password: "never-sent")
        #expect(foreign.status == 65, "\(foreign)")
        #expect(foreign.stderr.contains("this link has expired or was already used"))
        #expect(foreign.stderr.contains("flow_state_not_found"))

        let code = try #require(reset.gotrue.pkceCode(for: "ada@example.com"))
        let opened = try reset.open("resetapp://reset?code=\(code)", password: ResetTests.password)
        #expect(opened.status == 0, "\(opened)\n\(reset.world.daemonLog())")
        #expect(reset.gotrue.password(of: "ada@example.com") == ResetTests.password)
        let store = reset.world.state.appendingPathComponent("linkd/pkce").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: store).isEmpty)  // used up by its exchange
    }

    /// The backend's refusal quotes the request, password and bearer token included: neither reaches the terminal
    /// or the log.
    @Test func aBackendThatQuotesThePasswordShowsItRedacted() throws {
        let reset = try ResetWorld()
        reset.gotrue.quoteRequestsInErrors()
        let link = try reset.recoveryLink()
        let weak = #"C"n\7"#
        let result = try reset.open(link.url, password: weak)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains(#"(request: {"password": "<redacted>"}, Authorization: Bearer <redacted>)"#))
        let surfaces = reset.leakSurfaces() + result.stdout + result.stderr
        #expect(surfaces.contains("weak_password"))  // the log was read
        for secret in [weak, #"C\"n\\7"#, link.accessToken] { #expect(!surfaces.contains(secret), "\(secret)") }
    }
}
