import Foundation
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdTestSupport
import Testing

/// Backends that fail on the network, each behind the TLS proxy: one that never answers, one that answers a byte a
/// second, an expired certificate, a certificate for another host, a connection closed mid-TLS. Each ends within the
/// reset's time limits in a message that names the host, with exit 69 (unreachable), and the request that carries
/// the password is never sent twice.
@Suite(.ownThread, .disabled(if: Sanitizer.isActive, Sanitizer.reason)) struct BackendFaultTests {
    /// What a fault left: the reset's result, the double's requests, whether a password was asked, and how long it
    /// took.
    struct Outcome {
        var failure: ResetFailure
        var requests: [String]
        var asked: Int
        var seconds: Double
    }

    /// Runs a reset of a recovery link of ada@example.com against the GoTrue double behind a TLS proxy with `fault`
    /// and `certificate` (the test CA's server certificate by default), with a request limit of 2 s.
    private func reset(
        _ fault: TLSProxy.Fault,
        certificate: (TestCA) -> String = \.serverCertificate,
        requestTimeout: Duration = .seconds(2)
    ) async throws -> Outcome {
        let ca = try TestCA.make()
        let double = try doubleWithAda()
        let proxy = try TLSProxy(
            forwardingTo: double.port,
            certificate: certificate(ca),
            key: ca.serverKey,
            fault: fault
        )
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let client = GoTrueClient(
            url: proxy.baseURL,
            apiKey: GoTrueDouble.apiKey,
            transport: CurlTransport(caFile: ca.certificate, requestTimeout: requestTimeout)
        )
        let passwords = ScriptedPasswords(["new password 13"])
        let started = ContinuousClock.now
        let result = await PasswordReset(
            backend: SupabaseBackend(client: client),
            material: .session(accessToken: Secret(link.accessToken), refreshToken: Secret(link.refreshToken)),
            appName: "com.example.Notes",
            backendTimeLimit: .seconds(40)
        ).run(passwords: passwords)
        let elapsed = ContinuousClock.now - started
        return Outcome(
            failure: try #require(result.failure),
            requests: double.requestLines,
            asked: passwords.asked.withLock { $0.count },
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        )
    }

    /// The request limit of the tests whose TLS handshake fails: it fails at once, but on two cores shared by two
    /// test runs the proxy's side of it has taken over 2 s, which read as "did not answer in time".
    private static let handshakeLimit = Duration.seconds(10)

    private static let maybeSet = "; the new password may have been set: try signing in with it, or request a new email"

    @Test func aBackendThatNeverAnswersThePasswordIsNotAskedAgain() async throws {
        let outcome = try await reset(.silentAnswer(to: "PUT"))
        #expect(outcome.failure.message == "the backend '127.0.0.1' did not answer in time" + Self.maybeSet)
        #expect(outcome.failure.kind == .unreachable)
        #expect(outcome.requests == ["GET /auth/v1/user", "PUT /auth/v1/user"])  // the one PUT, never again
        #expect(outcome.asked == 1)
        #expect(outcome.seconds >= 1.5 && outcome.seconds < 10, "took \(outcome.seconds) s")
    }

    @Test func aBackendThatAnswersAByteASecondIsCutAtTheRequestLimit() async throws {
        let outcome = try await reset(.trickledAnswer(to: "PUT"))
        #expect(outcome.failure.message == "the backend '127.0.0.1' did not answer in time" + Self.maybeSet)
        #expect(outcome.failure.kind == .unreachable)
        #expect(outcome.requests == ["GET /auth/v1/user", "PUT /auth/v1/user"])
        #expect(outcome.seconds >= 1.5 && outcome.seconds < 10, "took \(outcome.seconds) s")
    }

    @Test func aConnectionClosedMidTLSAfterThePasswordIsNotRetried() async throws {
        let outcome = try await reset(.cutAnswer(to: "PUT"))
        #expect(
            outcome.failure.message
                == "the backend '127.0.0.1' cannot be reached: the connection closed before the answer was complete"
                + Self.maybeSet
        )
        #expect(outcome.failure.kind == .unreachable)
        #expect(outcome.requests == ["GET /auth/v1/user", "PUT /auth/v1/user"])
    }

    /// The password is asked once the link is known to be live (one connection); the request carrying it finds no
    /// backend to connect to, so it was never sent: said as nothing changed, not as "may have been set".
    @Test func aPasswordThatCouldNotBeSentIsSaidToHaveChangedNothing() async throws {
        let outcome = try await reset(.refusedAfterFirstConnection)
        #expect(
            outcome.failure.message
                == "the backend '127.0.0.1' cannot be reached: the connection was refused; the new password was not "
                + "sent, so nothing changed: open the link again"
        )
        #expect(outcome.failure.kind == .unreachable)
        #expect(outcome.requests == ["GET /auth/v1/user"])
        #expect(outcome.asked == 1)
    }

    @Test func aHandshakeClosedMidTLSIsRetriedAndNoPasswordIsAsked() async throws {
        let outcome = try await reset(.cutHandshake, requestTimeout: Self.handshakeLimit)
        #expect(
            outcome.failure.message
                == "the backend '127.0.0.1' cannot be reached: the TLS connection failed: the handshake was refused or "
                + "cut short"
        )
        #expect(outcome.failure.kind == .unreachable)
        #expect(outcome.requests.isEmpty && outcome.asked == 0)
        // Three attempts, 0.5 s and 1 s apart; each handshake may wait for the proxy up to its request limit on a
        // loaded machine, and all of it stays within the reset's time limit.
        #expect(outcome.seconds >= 1.4 && outcome.seconds < 40, "took \(outcome.seconds) s")
    }

    @Test func anExpiredCertificateIsSaidToBeExpired() async throws {
        let outcome = try await reset(.none, certificate: \.expiredCertificate, requestTimeout: Self.handshakeLimit)
        #expect(
            outcome.failure.message
                == "the backend '127.0.0.1' cannot be reached: the TLS connection failed: the server's certificate has "
                + "expired or is not yet valid"
        )
        #expect(outcome.failure.kind == .unreachable)
        #expect(outcome.requests.isEmpty && outcome.asked == 0)
    }

    @Test func aCertificateForAnotherHostIsSaidToBeSo() async throws {
        let outcome = try await reset(.none, certificate: \.wrongHostCertificate, requestTimeout: Self.handshakeLimit)
        #expect(
            outcome.failure.message
                == "the backend '127.0.0.1' cannot be reached: the TLS connection failed: the server's certificate is "
                + "not for this host name"
        )
        #expect(outcome.failure.kind == .unreachable)
        #expect(outcome.requests.isEmpty && outcome.asked == 0)
    }
}
