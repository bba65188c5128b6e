import Foundation
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdTestSupport
import LinkdWire
import Testing

@testable import LinkdDaemon

/// The `signin` action through the service, with a client that answers the confirmation itself: an emailed magic
/// link that linkd did not start is a session only once the person says it is theirs.
@Suite(.ownThread) struct SignInActionTests {
    static let email = "ada@example.com"

    /// A client on a terminal that answers every confirmation with `answer`, and keeps the questions.
    final class ConfirmingClient: LinkClient {
        let answer: Bool
        let questions = Lock<[String]>([])

        init(answer: Bool) { self.answer = answer }

        func newPassword(prompt: String, rejection: BackendError?) async -> Secret? { nil }
        func code(prompt: String, rejection: BackendError?) async -> Secret? { nil }
        var isWaiting: Bool { true }
        var canConfirm: Bool { true }
        func confirm(prompt: String) async -> Bool {
            questions.withLock { $0.append(prompt) }
            return answer
        }
    }

    private static func signInApp(_ double: GoTrueDouble) -> String {
        #"""
        {"app": "com.example.SignIn",
         "links": [{"match": "signinapp://signin", "format": "supabase", "action": {"signin": "forward"}}],
         "backend": {"kind": "supabase", "url": "\#(double.baseURL)", "apiKey": "\#(GoTrueDouble.apiKey)"}}
        """#
    }

    private func magicLink(_ double: GoTrueDouble) throws -> String {
        "signinapp://signin?token_hash=\(try #require(double.recoveryTokenHash(for: Self.email)))&type=magiclink"
    }

    @Test func aMagicLinkTheClientConfirmsSignsInAndWaitsForTheApp() async throws {
        let double = try GoTrueDouble()
        _ = double.addUser(email: Self.email, password: "pw")
        let world = try LinkServiceTests.World(apps: Self.signInApp(double))
        let client = ConfirmingClient(answer: true)
        let response = await world.service.open(try magicLink(double), client: client)
        guard case .accepted(let route, let app, let state, _) = response else {
            Issue.record("not accepted: \(response)")
            return
        }
        #expect(route == "supabase.otp" && app == "com.example.SignIn" && state == .queued)
        #expect(double.requestLines == ["POST /auth/v1/verify"])
        #expect(client.questions.withLock { $0.count } == 1)
        #expect(client.questions.withLock { $0.first?.contains("com.example.SignIn") } == true)
        #expect(double.liveSessionCount(for: Self.email) == 1)
        // The link stays recorded until the app takes its session, which waits in the daemon's memory alone.
        #expect(world.spooled.map(\.kind) == [.signin])
    }

    @Test func aMagicLinkTheClientDeclinesIsSignedOutAndGivesNothing() async throws {
        let double = try GoTrueDouble()
        _ = double.addUser(email: Self.email, password: "pw")
        let world = try LinkServiceTests.World(apps: Self.signInApp(double))
        let response = await world.service.open(try magicLink(double), client: ConfirmingClient(answer: false))
        #expect(response.failure?.reason == .notConfirmed, "\(response)")
        #expect(response.failure?.kind.exitCode == .invalid)
        #expect(double.liveSessionCount(for: Self.email) == 0, "the session the link made is signed out")
        #expect(world.spooled.isEmpty)
    }
}
