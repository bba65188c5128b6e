import Foundation
import LinkdFormats
import LinkdSystem
import LinkdTestSupport
import LinkdWire
import Testing

@testable import LinkdDaemon

/// The `reset` action with its service, against the GoTrue double over HTTP, no socket: it asks the client for the
/// new password and sets it; with no client to ask, or once the stop began, nothing is sent; a link the backend says
/// expired, or a code linkd did not ask for, is refused before any request.
@Suite(.ownThread) struct ResetActionTests {
    private static func resetApp(_ double: GoTrueDouble) -> String {
        #"""
        {"app": "com.example.Reset", "links": [{"match": "resetapp://reset", "format": "supabase", "action": "reset"}],
         "backend": {"kind": "supabase", "url": "\#(double.baseURL)", "apiKey": "\#(GoTrueDouble.apiKey)"}}
        """#
    }

    private static func recoveryLink(_ double: GoTrueDouble) throws -> String {
        let session = try #require(double.recoverySession(for: "ada@example.com"))
        return
            "resetapp://reset#access_token=\(session.accessToken)&refresh_token=\(session.refreshToken)&type=recovery"
    }

    @Test func aResetAsksTheClientForThePasswordAndChangesIt() async throws {
        let double = try GoTrueDouble()
        _ = double.addUser(email: "ada@example.com", password: "old")
        let world = try LinkServiceTests.World(apps: Self.resetApp(double))
        let client = LinkServiceTests.ScriptedClient(["new password 123"])
        let response = await world.service.open(try Self.recoveryLink(double), client: client)
        #expect(
            response
                == .accepted(
                    route: "supabase.recovery",
                    app: "com.example.Reset",
                    state: .done,
                    message: "the password of a***@example.com was changed"
                )
        )
        #expect(client.prompts.withLock { $0 } == ["New password for ada@example.com (com.example.Reset)"])
        #expect(double.password(of: "ada@example.com") == "new password 123")
        #expect(world.spooled.isEmpty)
    }

    @Test func aResetWithoutAClientIsRefusedAndTheLinkStaysUnused() async throws {
        let double = try GoTrueDouble()
        _ = double.addUser(email: "ada@example.com", password: "old")
        let world = try LinkServiceTests.World(apps: Self.resetApp(double))
        let response = await world.service.open(try Self.recoveryLink(double), client: nil)
        #expect(response.failure?.reason == .noPasswordSource && response.failure?.kind.exitCode == .temporaryFailure)
        #expect(double.requests.isEmpty)
        #expect(world.spooled.isEmpty)
    }

    @Test func theStopWhileThePasswordIsAskedSendsNothing() async throws {
        let double = try GoTrueDouble()
        _ = double.addUser(email: "ada@example.com", password: "old")
        let world = try LinkServiceTests.World(apps: Self.resetApp(double))
        let shutdown = world.shutdown
        // The stop cuts the question short.
        let client = LinkServiceTests.ScriptedClient([], onAsk: { shutdown.stop() })
        let response = await world.service.open(try Self.recoveryLink(double), client: client)
        #expect(response == .failed(.daemonStopping))
        #expect(double.requests.map(\.method) == ["GET"])
        #expect(double.password(of: "ada@example.com") == "old")
        #expect(world.spooled.isEmpty)
    }

    @Test func anExpiredLinkIsRefusedBeforeAnyRequest() async throws {
        let double = try GoTrueDouble()
        let world = try LinkServiceTests.World(apps: Self.resetApp(double))
        let expired =
            "resetapp://reset#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid"
        let response = await world.service.open(expired, client: LinkServiceTests.ScriptedClient(["unused 123"]))
        #expect(response.failure?.kind == .refused)
        #expect(response.failure?.message.hasPrefix("this link has expired or was already used") == true)
        #expect(double.requests.isEmpty && world.spooled.isEmpty)
    }

    @Test func aCodeLinkdDidNotAskForIsNotAReset() async throws {
        let double = try GoTrueDouble()
        let world = try LinkServiceTests.World(apps: Self.resetApp(double))
        let client = LinkServiceTests.ScriptedClient(["unused 123"])
        let response = await world.service.open("resetapp://reset?code=an-attackers-code", client: client)
        #expect(response.failure?.message.contains("linkd did not request this reset") == true)
        #expect(client.prompts.withLock { $0 }.isEmpty, "no password asked")
        #expect(double.requests.isEmpty && world.spooled.isEmpty)
    }
}
