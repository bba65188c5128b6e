import Foundation
import LinkdFormats
import LinkdTestSupport
import Testing

/// A sign-in of an account with a second factor (Supabase MFA): the app gets an AAL2 session once the authenticator
/// code is proved, and nothing when no code comes.
@Suite(.ownThread) struct SignInSecondFactorTests {
    static let secret = Array("12345678901234567890".utf8)

    @Test func aMagicLinkOfAnMFAAccountAsksForTheCodeAndDeliversTheAAL2Session() throws {
        let world = try SignInTests.World()
        world.gotrue.enrollTOTP(for: SignInTests.email, friendlyName: "Phone", secret: Self.secret)
        #expect(try world.login().status == 0)
        let link = try #require(world.gotrue.magicLinkRedirect(for: SignInTests.email))
        let code = try #require(world.gotrue.authenticatorCode(for: SignInTests.email))
        let opened = try world.world.run(
            ["open", "--code-stdin", link],
            stdin: Data("\(code)\n".utf8)
        )
        #expect(opened.status == 0, "\(opened)\n\(world.world.daemonLog())")
        #expect(world.world.waitUntil(.seconds(10)) { world.world.receivedPayloads().count == 1 })
        let payload = try #require(world.world.receivedPayloads().first)
        let session = try #require(payload["session"] as? [String: Any])
        let accessToken = try #require(session["access_token"] as? String)
        #expect(JWTClaims(Secret(accessToken))?.assuranceLevel == "aal2")
        #expect(world.gotrue.isSessionLive(accessToken: accessToken))
        #expect(
            world.gotrue.requests.filter { $0.target.hasSuffix("/verify") && $0.target.contains("factors") }.count == 1
        )
        #expect(!world.leakSurfaces().contains(code))
    }

    @Test func withoutACodeNothingIsDeliveredAndTheSessionIsSignedOut() throws {
        let world = try SignInTests.World()
        world.gotrue.enrollTOTP(for: SignInTests.email, secret: Self.secret)
        #expect(try world.login().status == 0)
        let link = try #require(world.gotrue.magicLinkRedirect(for: SignInTests.email))
        let opened = try world.world.run(["open", link], extra: ["PATH": "/nonexistent", "LINKD_ASKPASS": ""])
        #expect(opened.status == 65, "\(opened)\n\(world.world.daemonLog())")
        #expect(
            opened.stderr
                == "Error: link 1: the account has a second factor and no code was given; nothing was delivered to "
                + "com.example.SignIn [refused]\n"
        )
        #expect(world.world.receivedPayloads().isEmpty)
        #expect(world.gotrue.liveSessionCount(for: SignInTests.email) == 0)
    }
}
