import Foundation
import LinkdFormats
import LinkdSession
import LinkdTestSupport
import Testing

/// Backends that misbehave: garbage, silence, a connection closed mid-answer. Each ends in a clear message and its
/// exit code, within the limits, and the password request is never sent twice.
@Suite(.ownThread) struct BackendFailureTests {
    private static let user = DoubleResponse.json(200, ["id": "u1", "email": "ada@example.com"])
    /// A recovery link whose access token has no expiry, so that `GET /user` is always the first request.
    private static let link = SupabaseBackend.Material.session(
        accessToken: emailedLinkToken(),
        refreshToken: Secret("refresh-token-1")
    )

    private func run(
        _ server: TestHTTPServer,
        requestTimeout: Duration = .seconds(15)
    ) async -> Result<ResetSuccess, ResetFailure> {
        let client = GoTrueClient(
            url: server.baseURL,
            apiKey: "k",
            transport: CurlTransport(requestTimeout: requestTimeout)
        )
        return await PasswordReset(
            backend: SupabaseBackend(client: client),
            material: Self.link,
            appName: "n"
        ).run(passwords: ScriptedPasswords(["new password 7"]))
    }

    @Test func anAnswerThatIsNotJSONIsNamedAndNotRetried() async throws {
        let server = try TestHTTPServer { _ in
            DoubleResponse(status: 200, headers: [("Content-Type", "text/html")], body: Data("<html>hi</html>".utf8))
        }
        let failure = try #require(await run(server).failure)
        #expect(failure.kind == .unreachable)
        #expect(failure.message == "the backend's answer cannot be read: HTTP 200 without a JSON object")
        #expect(server.requests.count == 1)
    }

    @Test(.disabled(if: Sanitizer.isActive, Sanitizer.reason))
    func aSilentBackendTimesOutAfterThreeAttempts() async throws {
        let server = try TestHTTPServer { _ in
            Thread.sleep(forTimeInterval: 3)
            return Self.user
        }
        // The double answers a good user after 3 s: only a request limit of 1 s turns that into this failure.
        let failure = try #require(await run(server, requestTimeout: .seconds(1)).failure)
        #expect(failure.kind == .unreachable && failure.message == "the backend '127.0.0.1' did not answer in time")
        #expect(server.requests.count == 3)
    }

    @Test func theWholeResetStopsAtItsBackendTimeLimitRetriesIncluded() async throws {
        let server = try TestHTTPServer { _ in
            Thread.sleep(forTimeInterval: 3)
            return Self.user
        }
        let client = GoTrueClient(url: server.baseURL, apiKey: "k", transport: CurlTransport())
        let result = await PasswordReset(
            backend: SupabaseBackend(client: client),
            material: Self.link,
            appName: "n",
            backendTimeLimit: .seconds(1)
        ).run(passwords: ScriptedPasswords(["never sent"]))
        let timedOut = try #require(result.failure)
        #expect(timedOut.message == "the backend '127.0.0.1' did not answer in time")
        #expect(server.requests.count == 1)  // the retries found no time left and sent nothing
    }

    @Test func aConnectionClosedMidAnswerIsRetriedBeforeThePasswordOnly() async throws {
        let closing = try TestHTTPServer { _ in
            var answer = Self.user
            answer.cutShortAfter = 10
            return answer
        }
        let before = try #require(await run(closing).failure)
        #expect(
            before.message
                == "the backend '127.0.0.1' cannot be reached: the connection closed before the answer was complete"
        )
        #expect(closing.requests.count == 3)

        let dyingOnPut = try TestHTTPServer { request in
            guard request.method == "PUT" else { return Self.user }
            var answer = Self.user
            answer.cutShortAfter = 10
            return answer
        }
        let after = try #require(await run(dyingOnPut).failure)
        #expect(after.kind == .unreachable)
        #expect(
            after.message
                == "the backend '127.0.0.1' cannot be reached: the connection closed before the answer was complete; the new "
                + "password may have been set: try signing in with it, or request a new email"
        )
        #expect(dyingOnPut.requests.map(\.method) == ["GET", "PUT"])
    }
}
