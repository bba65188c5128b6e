import Foundation
import LinkdTestSupport
import Testing

/// `linkd confirm resend` against the App Services double: the confirmation email sent again, the custom
/// confirmation function run again (`--retry`), and the backend's refusals in its words.
@Suite(.ownThread) struct ConfirmCommandTests {
    static let prefix = "/api/client/v2.0/app/\(AppServicesDouble.appID)/auth/providers/local-userpass"

    @Test func theConfirmationEmailIsSentAgainAndTheFunctionRunAgain() throws {
        let reset = try ResetWorld()
        _ = reset.appServices.register(email: "new@example.com", password: "pw-123456")
        let resend = try reset.world.run(["confirm", "resend", "--app", ResetWorld.app, "--email", "new@example.com"])
        #expect(resend.status == 0, "\(resend)")
        #expect(
            resend.stdout == "requested: a confirmation email for n***@example.com is on its way; open its link here\n"
        )
        #expect(reset.appServices.sentConfirmations(to: "new@example.com") == 1)
        let sent = try #require(reset.appServices.requests.last)
        #expect(sent.path == Self.prefix + "/confirm/send")
        #expect(sent.jsonBody?["email"] as? String == "new@example.com")
        #expect(!reset.appServices.isConfirmed("new@example.com"))

        let retry = try reset.world.run([
            "confirm", "resend", "--retry", "--app", ResetWorld.app, "--email", "new@example.com",
        ])
        #expect(retry.status == 0, "\(retry)")
        #expect(
            retry.stdout == "requested: com.example.Reset's confirmation function runs again for n***@example.com\n"
        )
        #expect(reset.appServices.requests.last?.path == Self.prefix + "/confirm/call")
        #expect(reset.appServices.isConfirmed("new@example.com"))
    }

    @Test func aConfirmedOrUnknownAccountIsRefusedInTheBackendsWords() throws {
        let reset = try ResetWorld()
        let confirmed = try reset.world.run([
            "confirm", "resend", "--app", ResetWorld.app, "--email", "ada@example.com",
        ])
        #expect(confirmed.status == 65, "\(confirmed)")
        #expect(
            confirmed.stderr
                == "Error: the backend refused the request: already confirmed [UserAlreadyConfirmed, HTTP 400]\n"
        )
        let unknown = try reset.world.run([
            "confirm", "resend", "--retry", "--app", ResetWorld.app, "--email", "bob@example.com",
        ])
        #expect(unknown.status == 65, "\(unknown)")
        #expect(unknown.stderr == "Error: the backend refused the request: user not found [UserNotFound, HTTP 404]\n")
    }

    @Test func anAppWithoutAnAppServicesBackendIsAUsageError() throws {
        let world = try DaemonHarness()
        let output = try world.run(["confirm", "resend", "--app", "com.example.Notes", "--email", "ada@example.com"])
        #expect(output.status == 64, "\(output)")
        #expect(
            output.stderr
                == "Error: com.example.Notes has no App Services backend; confirmation emails are App Services' "
                + "(Supabase sends its own)\n"
        )
    }
}
