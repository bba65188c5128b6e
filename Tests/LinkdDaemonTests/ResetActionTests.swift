import Foundation
import LinkdFormats
import LinkdRouting
import LinkdSession
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

extension ResetActionTests {
    /// A client that gives one password, after `beforeAnswer` has run.
    final class AskingClient: LinkClient {
        let password: String
        let beforeAnswer: @Sendable () async -> Void

        init(password: String, beforeAnswer: @escaping @Sendable () async -> Void) {
            self.password = password
            self.beforeAnswer = beforeAnswer
        }

        func newPassword(prompt: String, rejection: BackendError?) async -> Secret? {
            await beforeAnswer()
            return Secret(password)
        }

        func code(prompt: String, rejection: BackendError?) async -> Secret? { nil }
        var isWaiting: Bool { true }
        var canConfirm: Bool { false }
        func confirm(prompt: String) async -> Bool { false }
    }

    /// The first run of a PKCE reset has used its verifier by the time it asks for the password: a second click then
    /// joins that run and hears its answer, rather than being refused for want of the verifier.
    @Test func aSecondClickOfAPKCEResetWhileThePasswordIsAskedJoinsTheFirstRun() async throws {
        let double = try GoTrueDouble()
        _ = double.addUser(email: "ada@example.com", password: "old")
        let world = try LinkServiceTests.World(apps: Self.resetApp(double))
        defer { try? FileManager.default.removeItem(at: world.root) }
        let backend = BackendConfig(
            kind: .supabase(apiKey: Secret(GoTrueDouble.apiKey)),
            url: try LinkURL(parsing: double.baseURL)
        ).makeBackend()
        try await backend.reset.requestReset(
            email: "ada@example.com",
            redirectTo: "resetapp://reset",
            verifierStore: PKCEStore(stateFolder: world.root.path),
            app: "com.example.Reset"
        )
        let link = "resetapp://reset?code=\(try #require(double.pkceCode(for: "ada@example.com")))"
        let (service, key) = (world.service, "com.example.Reset\n" + link)
        let second = Lock<Task<WireProtocol.Response, Never>?>(nil)
        let secondEnded = Lock(false)
        let client = AskingClient(password: "new password 456") {
            second.withLock {
                $0 = Task {
                    defer { secondEnded.withLock { $0 = true } }
                    return await service.open(link, client: LinkServiceTests.ScriptedClient([]))
                }
            }
            // Until the second click waits for this run's answer — or has its own answer already, which the
            // expectations below catch. No deadline: on a machine busy with two test runs the second click's task
            // can wait over a minute to be scheduled, and answering before it joins fails the test for nothing.
            while service.context.flights.waiting(for: key) == 0, !secondEnded.withLock({ $0 }) {
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        let first = await service.open(link, client: client)
        let repeated = try await #require(second.withLock { $0 }).value
        #expect(first.failure == nil, "\(first)")
        #expect(repeated == first)
        #expect(double.password(of: "ada@example.com") == "new password 456")
    }
}
