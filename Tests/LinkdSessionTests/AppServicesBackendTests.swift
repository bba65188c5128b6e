import Foundation
import LinkdSession
import LinkdTestSupport
import Testing

/// The reset-email request against App Services: `…/reset/send` with the address alone; no verifier is kept.
@Suite(.ownThread) struct AppServicesBackendTests {
    @Test func aRequestSendsTheAddressAloneAndAnUnknownOneIsRefused() async throws {
        let double = try appServicesWithAda()
        try await withTemporaryStore { store in
            try await double.backend.requestNotesReset(store: store)
            #expect(double.sentReset(to: "ada@example.com") != nil)
            let request = try #require(double.requests.first)
            #expect(
                request.target
                    == "/api/client/v2.0/app/\(AppServicesDouble.appID)/auth/providers/local-userpass/reset/send"
            )
            #expect(request.jsonBody as? [String: String] == ["email": "ada@example.com"])
            #expect(request.header("Authorization") == nil)
            let unknown = await #expect(throws: ResetFailure.self) {
                try await double.backend.requestNotesReset(for: "nobody@example.com", store: store)
            }
            #expect(unknown?.kind == .refused)
            #expect(unknown?.message == "the backend refused the request: user not found [UserNotFound, HTTP 404]")
            #expect(!FileManager.default.fileExists(atPath: store.directory))
        }
    }
}
