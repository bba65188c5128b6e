import Foundation
import LinkdTestSupport
import Testing

/// `linkd reset request` for an App Services app whose provider runs a reset function (`"resetFunction": true`):
/// the new password is asked for at once and `…/reset/call` runs the function with it and the configured arguments.
@Suite(.ownThread) struct ResetFunctionTests {
    static let app = "com.example.Function"

    /// A world with an App Services app whose backend runs a reset function with `arguments` (a JSON array's text).
    static func world(
        arguments: String = #"["es", {"securityQuestion": "pet"}]"#
    ) throws -> (
        DaemonHarness, AppServicesDouble
    ) {
        let world = try DaemonHarness()
        let services = try AppServicesDouble()
        services.addUser(email: "ada@example.com", password: "old-password")
        let config = """
            {"app": "\(app)", "links": [{"match": "https://fn.example.com/reset", "format": "appservices", "action": "reset"}],
             "backend": {"kind": "appservices", "url": "\(services.baseURL)", "appId": "\(AppServicesDouble.appID)",
                         "resetFunction": true, "resetArguments": \(arguments)}}
            """
        try Data(config.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/function.json"))
        return (world, services)
    }

    /// `linkd reset request --password-stdin` for `email`, with `password` on standard input (nothing when `nil`).
    static func request(_ world: DaemonHarness, email: String, password: String?) throws -> LinkdProcess.Output {
        try world.run(
            ["reset", "request", "--app", app, "--email", email, "--password-stdin"],
            stdin: Data((password.map { $0 + "\n" } ?? "").utf8)
        )
    }

    static let callPath = "/api/client/v2.0/app/\(AppServicesDouble.appID)/auth/providers/local-userpass/reset/call"

    @Test func theFunctionGetsTheEmailThePasswordAndTheArguments() throws {
        let (world, services) = try Self.world()
        let output = try Self.request(world, email: "ada@example.com", password: "Fn-pass-77a1")
        #expect(output.status == 0, "\(output)")
        #expect(
            output.stdout
                == "sent: com.example.Function's reset function took the new password for a***@example.com; if it asks "
                + "you to confirm, an email is on its way\n"
        )
        let calls = services.requests.filter { $0.path == Self.callPath }
        #expect(calls.count == 1)
        let body = try #require(calls.first?.jsonBody)
        #expect(body["email"] as? String == "ada@example.com" && body["password"] as? String == "Fn-pass-77a1")
        let arguments = try #require(body["arguments"] as? [Any])
        #expect(arguments.first as? String == "es")
        #expect((arguments.last as? [String: String]) == ["securityQuestion": "pet"])
        #expect(services.password(of: "ada@example.com") == "Fn-pass-77a1")
        #expect(!services.requests.contains { $0.path.hasSuffix("/reset/send") })
        #expect(!(output.stdout + output.stderr).contains("Fn-pass-77a1"))
    }

    @Test func aFunctionThatFailsOrAnUnknownUserIsSaidInTheBackendsWords() throws {
        let (world, services) = try Self.world(arguments: "[]")
        services.setResetFunctionFails(true)
        let failed = try Self.request(world, email: "ada@example.com", password: "Fn-pass-88b2")
        #expect(failed.status == 65, "\(failed)")
        #expect(
            failed.stderr
                == "Error: the backend refused the request: failed to reset password for user \"ada@example.com\" "
                + "[FunctionExecutionError, HTTP 400]\n"
        )
        #expect(services.password(of: "ada@example.com") == "old-password")
        let unknown = try Self.request(world, email: "bob@example.com", password: "Fn-pass-99c3")
        #expect(unknown.status == 65, "\(unknown)")
        #expect(unknown.stderr == "Error: the backend refused the request: user not found [UserNotFound, HTTP 404]\n")
        let body = try #require(services.requests.filter { $0.path == Self.callPath }.first?.jsonBody)
        #expect((body["arguments"] as? [Any])?.isEmpty == true)
    }

    @Test func noPasswordSendsNothing() throws {
        let (world, services) = try Self.world()
        let output = try Self.request(world, email: "ada@example.com", password: nil)
        #expect(output.status == 75, "\(output)")
        #expect(output.stderr == "Error: no new password was given; nothing was sent\n")
        #expect(services.requests.isEmpty)
    }
}
