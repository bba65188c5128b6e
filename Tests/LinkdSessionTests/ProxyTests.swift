import Foundation
import Glibc
import LinkdFormats
import LinkdSession
import LinkdTestSupport
import Testing

/// The backend's requests carry tokens and passwords: they never go through a proxy that the environment of
/// whichever client started the daemon names.
@Suite(.serialized) struct ProxyTests {
    private static let variables = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]

    @Test func proxyVariablesAreIgnored() async throws {
        let proxy = try TestHTTPServer { _ in .json(502, ["message": "went through the proxy"]) }
        let double = try doubleWithAda()
        let session = try #require(double.recoverySession(for: "ada@example.com"))
        for name in Self.variables { setenv(name, proxy.baseURL, 1) }
        defer { for name in Self.variables { unsetenv(name) } }
        let client = GoTrueClient(url: double.baseURL, apiKey: GoTrueDouble.apiKey, transport: CurlTransport())
        let user = try await client.user(accessToken: Secret(session.accessToken))
        #expect(user.email == "ada@example.com")
        #expect(proxy.requests.isEmpty, "the proxy saw \(proxy.requests.map(\.target))")
        #expect(double.requestLines == ["GET /auth/v1/user"])
    }
}
