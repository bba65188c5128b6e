import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdTestSupport
import Testing

/// A backend's email-confirmation link at a sign-in link: only App Services' `appservices.confirm` is one, and its
/// confirmation confirms the account at the backend once (over real HTTP to the App Services double).
@Suite(.ownThread) struct EmailConfirmationTests {
    @Test func onlyAnAppServicesConfirmLinkConfirmsAndItDoesSoOnce() async throws {
        let double = try AppServicesDouble()
        let (token, tokenID) = double.register(email: "ada@example.com", password: "pw-123456")
        let appServices = BackendConfig(
            kind: .appServices(appID: AppServicesDouble.appID),
            url: try LinkURL(parsing: double.baseURL)
        ).makeBackend()
        let supabase = BackendConfig(
            kind: .supabase(apiKey: Secret("k")),
            url: try LinkURL(parsing: "https://abcd.supabase.co")
        ).makeBackend()
        let confirm = try AuthLinkFormat.appservices.route(
            LinkURL(parsing: "myapp://confirm-email?token=\(token)&tokenId=\(tokenID)")
        )
        let reset = try AuthLinkFormat.appservices.route(
            LinkURL(parsing: "myapp://reset-password?token=\(token)&tokenId=\(tokenID)")
        )
        #expect(supabase.emailConfirmation(of: confirm) == nil)
        #expect(appServices.emailConfirmation(of: reset) == nil, "a reset link confirms nothing")
        #expect(appServices.emailConfirmation(of: nil) == nil)
        let confirmation = try #require(appServices.emailConfirmation(of: confirm))
        #expect(!double.isConfirmed("ada@example.com"))
        try await confirmation()
        #expect(double.isConfirmed("ada@example.com"))
        await #expect(throws: SessionError.self) { try await confirmation() }
    }
}
