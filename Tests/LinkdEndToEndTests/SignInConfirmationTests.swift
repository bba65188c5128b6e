import Foundation
import LinkdTestSupport
import Testing

/// An App Services email confirmation at a `signin` link: the account is confirmed against the App Services double
/// over real HTTP, once, and the person is told to sign in; nothing is delivered.
@Suite(.ownThread) struct SignInConfirmationTests {
    static let app = "com.example.Confirm"
    static let email = "ada@example.com"

    /// A daemon world whose app confirms at `asapp://confirmEmail` and (wrongly, for the test) has a reset link at a
    /// sign-in route too, with the App Services double as its backend.
    static func world() throws -> (world: DaemonHarness, backend: AppServicesDouble) {
        let world = try DaemonHarness()
        let backend = try AppServicesDouble()
        let record = world.root.appendingPathComponent("record.sh").path
        let config = """
            {"app": "\(app)", "links": [
              {"match": "asapp://confirmEmail", "format": "appservices", "action": {"signin": {"exec": ["\(record)"]}}},
              {"match": "asapp://resetPassword", "format": "appservices", "action": {"signin": "forward"}}],
             "backend": {"kind": "appservices", "url": "\(backend.baseURL)", "appId": "\(AppServicesDouble.appID)"}}
            """
        try Data(config.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/confirm.json"))
        return (world, backend)
    }

    @Test func theConfirmationLinkConfirmsTheAccountOnceAndDeliversNothing() throws {
        let (world, backend) = try Self.world()
        let (token, tokenID) = backend.register(email: Self.email, password: "a-password")
        #expect(!backend.isConfirmed(Self.email))
        let link = "asapp://confirmEmail?token=\(token)&tokenId=\(tokenID)"
        let opened = try world.run(["open", link])
        #expect(opened.status == 0, "\(opened)\n\(world.daemonLog())")
        #expect(
            opened.stdout
                == "done: appservices.confirm → com.example.Confirm: email confirmed: sign in to com.example.Confirm\n"
        )
        #expect(backend.isConfirmed(Self.email))
        let request = try #require(backend.requests.first)
        #expect(request.path.hasSuffix("/auth/providers/local-userpass/confirm"))
        #expect(request.jsonBody?["token"] as? String == token && request.jsonBody?["tokenId"] as? String == tokenID)
        #expect(world.receivedPayloads().isEmpty)  // a confirmation makes no session to deliver

        let again = try world.run(["open", link])
        #expect(again.status == 65, "\(again)")
        #expect(again.stderr.contains("invalid token data"), "\(again)")
        let log = world.daemonLog()
        #expect(!log.contains(token) && !log.contains(tokenID))
        #expect(world.spooledURLs().isEmpty)
    }

    @Test func aResetLinkAtASignInRouteIsRefusedBeforeAnythingIsSent() throws {
        let (world, backend) = try Self.world()
        let reset = backend.resetToken(for: Self.email)
        let opened = try world.run(["open", "asapp://resetPassword?token=\(reset.token)&tokenId=\(reset.tokenID)"])
        #expect(opened.status == 65, "\(opened)")
        #expect(opened.stderr.hasSuffix("[not_a_signin]\n"), "\(opened)")
        #expect(backend.requests.isEmpty)
    }
}
