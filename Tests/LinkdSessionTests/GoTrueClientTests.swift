import Foundation
import LinkdFormats
import LinkdSession
import LinkdTestSupport
import Testing

/// The GoTrue client over the live curl transport against the GoTrue double: the exact requests, and every
/// refusal turned into a typed error in the backend's words.
@Suite(.ownThread) struct GoTrueClientTests {
    private func client(_ double: GoTrueDouble) -> GoTrueClient {
        GoTrueClient(url: double.baseURL + "/", apiKey: GoTrueDouble.apiKey, transport: CurlTransport())
    }

    @Test func aRecoveryLinksSessionSetsThePasswordWithTheExactRequests() async throws {
        let double = try GoTrueDouble()
        double.addUser(email: "ada@example.com", password: "old-password")
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let client = client(double)
        let access = Secret(link.accessToken)
        let user = try await client.user(accessToken: access)
        #expect(user.email == "ada@example.com")
        try await client.updatePassword(Secret("correct horse"), accessToken: access)
        try await client.logout(accessToken: access)
        #expect(double.password(of: "ada@example.com") == "correct horse")
        #expect(!double.isSessionLive(accessToken: link.accessToken))
        let requests = double.requests
        #expect(
            double.requestLines == [
                "GET /auth/v1/user", "PUT /auth/v1/user", "POST /auth/v1/logout?scope=local",
            ]
        )
        #expect(double.missingSessionHeaders(accessToken: link.accessToken) == [])
        #expect(String(decoding: requests[1].body, as: UTF8.self) == #"{"password": "correct horse"}"#)
        #expect(requests[1].header("Content-Type") == "application/json")
        #expect(requests[0].body.isEmpty && requests[2].body.isEmpty)
    }

    @Test func anExpiredLinkTokenIsRefusedAndItsRefreshTokenGivesANewSession() async throws {
        let double = try GoTrueDouble()
        double.addUser(email: "ada@example.com", password: "old-password")
        let link = try #require(double.recoverySession(for: "ada@example.com", expiresIn: 10))
        double.advanceClock(by: 60)
        let client = client(double)
        let expired = await backendError { () async throws(SessionError) in
            _ = try await client.user(accessToken: Secret(link.accessToken))
        }
        #expect(expired?.code == "bad_jwt" && expired?.kind == .linkExpiredOrUsed)
        let session = try await client.refresh(Secret(link.refreshToken))
        #expect(session.user.email == "ada@example.com")
        #expect(session.refreshToken.revealed() != link.refreshToken)
        #expect(try await client.user(accessToken: session.accessToken).email == "ada@example.com")
        #expect(
            String(decoding: double.requests[1].body, as: UTF8.self) == #"{"refresh_token": "\#(link.refreshToken)"}"#
        )
        #expect(double.requests[1].header("Authorization") == nil)
        let reused = await backendError { () async throws(SessionError) in
            _ = try await client.refresh(Secret(link.refreshToken))
        }
        #expect(reused?.code == "refresh_token_already_used")
    }

    @Test func aTokenHashWorksOnceAndAWeakPasswordComesBackWithItsReasons() async throws {
        let double = try GoTrueDouble()
        double.addUser(email: "ada@example.com", password: "old-password")
        let hash = Secret(try #require(double.recoveryTokenHash(for: "ada@example.com")))
        let client = client(double)
        let session = try await client.verify(tokenHash: hash, type: "recovery")
        #expect(
            String(decoding: double.requests[0].body, as: UTF8.self)
                == #"{"token_hash": "\#(hash.revealed())", "type": "recovery"}"#
        )
        let weak = await backendError { () async throws(SessionError) in
            try await client.updatePassword(Secret("abc"), accessToken: session.accessToken)
        }
        #expect(weak?.kind == .passwordRejected && weak?.reasons == ["length"])
        let again = await backendError { () async throws(SessionError) in
            _ = try await client.verify(tokenHash: hash, type: "recovery")
        }
        #expect(again?.code == "otp_expired")
        #expect(double.password(of: "ada@example.com") == "old-password")
    }

    @Test func noAnswerIsATransportErrorThatNamesNoSecret() async throws {
        let closed = try TestHTTPServer { _ in DoubleResponse(status: 200) }
        let port = closed.port
        closed.stop()
        let refused = GoTrueClient(url: "http://127.0.0.1:\(port)", apiKey: "k", transport: CurlTransport())
        do {
            _ = try await refused.user(accessToken: Secret("tok-canary-1"))
            Issue.record("a closed port answered")
        } catch {
            #expect(error == .transport(.unreachable(host: "127.0.0.1", "the connection was refused")))
            #expect(!error.description.contains("tok-canary"))
        }
        let insecure = GoTrueClient(url: "http://auth.example.com", apiKey: "k", transport: CurlTransport())
        do {
            _ = try await insecure.user(accessToken: Secret("tok-canary-2"))
            Issue.record("plain http left the machine")
        } catch {
            #expect(error == .transport(.insecureURL("auth.example.com")))
        }
    }

    @Test func aSilentBackendTimesOutAndARedirectIsNotFollowed() async throws {
        let silent = try TestHTTPServer { _ in
            Thread.sleep(forTimeInterval: 3)
            return DoubleResponse(status: 200)
        }
        let slow = GoTrueClient(url: silent.baseURL, apiKey: "k", transport: CurlTransport(requestTimeout: .seconds(1)))
        do {
            _ = try await slow.user(accessToken: Secret("t"))
            Issue.record("a silent backend answered")
        } catch {
            #expect(error == .transport(.timedOut(host: "127.0.0.1")))
        }
        let elsewhere = try TestHTTPServer { _ in DoubleResponse(status: 200, body: Data(#"{"id":"x"}"#.utf8)) }
        let redirecting = try TestHTTPServer { _ in
            DoubleResponse(status: 302, headers: [("Location", elsewhere.baseURL + "/auth/v1/user")])
        }
        let client = GoTrueClient(url: redirecting.baseURL, apiKey: "k", transport: CurlTransport())
        do {
            _ = try await client.user(accessToken: Secret("t"))
            Issue.record("the redirect was followed")
        } catch {
            guard case .backend(let backend) = error else { throw error }
            #expect(backend.status == 302)
        }
        #expect(elsewhere.requests.isEmpty)
    }
}
