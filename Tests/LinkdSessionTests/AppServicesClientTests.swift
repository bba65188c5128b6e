import Foundation
import LinkdFormats
import LinkdSession
import LinkdTestSupport
import Testing

/// The App Services client over URLSession against the App Services double (backend-contract.md §B).
@Suite(.ownThread) struct AppServicesClientTests {
    private func client(_ double: AppServicesDouble) -> AppServicesClient {
        AppServicesClient(url: double.baseURL, appID: AppServicesDouble.appID, transport: CurlTransport())
    }

    @Test func aResetLinkSetsThePasswordOnceWithTheExactRequest() async throws {
        let double = try AppServicesDouble()
        double.addUser(email: "ada@example.com", password: "old-password")
        let link = double.resetToken(for: "ada@example.com")
        let client = client(double)
        try await client.resetPassword(Secret("new password"), token: Secret(link.token), tokenID: link.tokenID)
        #expect(double.password(of: "ada@example.com") == "new password")
        let request = try #require(double.requests.first)
        #expect(request.target == "/api/client/v2.0/app/\(AppServicesDouble.appID)/auth/providers/local-userpass/reset")
        #expect(
            request.jsonBody as? [String: String] == [
                "password": "new password", "token": link.token, "tokenId": link.tokenID,
            ]
        )
        #expect(request.header("Authorization") == nil)
        let used = await backendError { () async throws(SessionError) in
            try await client.resetPassword(Secret("other password"), token: Secret(link.token), tokenID: link.tokenID)
        }
        #expect(
            used
                == BackendError(
                    kind: .linkExpiredOrUsed,
                    status: 400,
                    code: "UserpassTokenInvalid",
                    message: "invalid token data"
                )
        )
        #expect(double.password(of: "ada@example.com") == "new password")
    }

    @Test func anOldTokenAndAShortPasswordAreRefusedInTheBackendsWords() async throws {
        let double = try AppServicesDouble()
        double.addUser(email: "ada@example.com", password: "old-password")
        let client = client(double)
        let old = double.resetToken(for: "ada@example.com", age: 31 * 60)
        let expired = await backendError { () async throws(SessionError) in
            try await client.resetPassword(Secret("new password"), token: Secret(old.token), tokenID: old.tokenID)
        }
        #expect(expired?.kind == .linkExpiredOrUsed)
        let fresh = double.resetToken(for: "ada@example.com")
        let short = await backendError { () async throws(SessionError) in
            try await client.resetPassword(Secret("abc"), token: Secret(fresh.token), tokenID: fresh.tokenID)
        }
        #expect(short?.kind == .passwordRejected)
        #expect(short?.message == "password must be between 6 and 128 characters")
        #expect(double.password(of: "ada@example.com") == "old-password")
    }

    @Test func theResetEmailIsRequestedAndAnUnknownUserIsNamedAsSuch() async throws {
        let double = try AppServicesDouble()
        double.addUser(email: "ada@example.com", password: "old-password")
        let client = client(double)
        try await client.sendResetEmail(to: "ada@example.com")
        let sent = try #require(double.sentReset(to: "ada@example.com"))
        try await client.resetPassword(Secret("from the email"), token: Secret(sent.token), tokenID: sent.tokenID)
        #expect(double.password(of: "ada@example.com") == "from the email")
        let unknown = await backendError { () async throws(SessionError) in
            try await client.sendResetEmail(to: "nobody@example.com")
        }
        #expect(unknown == BackendError(kind: .refused, status: 404, code: "UserNotFound", message: "user not found"))
    }
}
