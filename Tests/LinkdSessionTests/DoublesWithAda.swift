import Foundation
import LinkdFormats
import LinkdSession
import LinkdTestSupport

/// A GoTrue double whose one user, ada@example.com, has the password `old-password`.
func doubleWithAda() throws -> GoTrueDouble {
    let double = try GoTrueDouble()
    double.addUser(email: "ada@example.com", password: "old-password")
    return double
}

/// An App Services double whose one user, ada@example.com, has the password `old-password`.
func appServicesWithAda() throws -> AppServicesDouble {
    let double = try AppServicesDouble()
    double.addUser(email: "ada@example.com", password: "old-password")
    return double
}

/// A verifier store in a fresh temporary folder (not created until a verifier is stored); removed after `body`.
func withTemporaryStore(_ body: (PKCEStore) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appending(path: "pkce-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try await body(PKCEStore(stateFolder: folder + "/linkd"))
}

/// An access token whose claims say an emailed link made its session (`amr` `otp`) and set no expiry, unsigned:
/// for test servers that take any token.
func emailedLinkToken() -> Secret {
    func segment(_ json: String) -> String {
        Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    let claims = #"{"sub":"u1","amr":[{"method":"otp","timestamp":1700000000}]}"#
    return Secret(segment(#"{"alg":"HS256","typ":"JWT"}"#) + "." + segment(claims) + ".c2lnbmF0dXJl")
}

/// The current time in Unix seconds, as the verifier store counts it.
var unixNow: Int64 { Int64(Date().timeIntervalSince1970) }

extension GoTrueDouble {
    /// This double as a reset backend, over the live transport.
    var backend: SupabaseBackend {
        SupabaseBackend(client: GoTrueClient(url: baseURL, apiKey: Self.apiKey, transport: CurlTransport()))
    }
}

extension AppServicesDouble {
    /// This double as a reset backend, over the live transport.
    var backend: AppServicesBackend {
        AppServicesBackend(client: AppServicesClient(url: baseURL, appID: Self.appID, transport: CurlTransport()))
    }
}

extension Result {
    /// The failure, or `nil` for a success.
    var failure: Failure? {
        guard case .failure(let failure) = self else { return nil }
        return failure
    }
}

extension AuthBackend {
    /// Asks for a reset email to `email` for com.example.Notes, leading to `com.example.notes://reset`.
    ///
    /// - Throws: what ``AuthBackend/requestReset(email:redirectTo:verifierStore:app:)`` throws.
    func requestNotesReset(for email: String = "ada@example.com", store: PKCEStore) async throws(ResetFailure) {
        try await requestReset(
            email: email,
            redirectTo: "com.example.notes://reset",
            verifierStore: store,
            app: "com.example.Notes"
        )
    }
}
