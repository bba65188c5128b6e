import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdTestSupport
import Testing

/// A backend's own emailed link (Supabase's verify endpoint): which links are one, and what asking the backend where
/// one leads answers, over real HTTP to the GoTrue double.
@Suite(.ownThread) struct EmailedLinkAnswerTests {
    private func supabase(_ url: String) throws -> BackendConfig {
        BackendConfig(kind: .supabase(apiKey: Secret("k")), url: try LinkURL(parsing: url))
    }

    @Test func aSupabaseBackendsVerifyEndpointIsItsEmailedLinkAndNothingElseIs() throws {
        let backend = try supabase("https://abcd.supabase.co")
        let based = try supabase("http://127.0.0.1:9999/base/")
        let appServices = BackendConfig(
            kind: .appServices(appID: "app-abcde"),
            url: try LinkURL(parsing: "https://abcd.supabase.co")
        )
        let verify = try LinkURL(parsing: "https://abcd.supabase.co/auth/v1/verify?token=t&type=recovery")
        #expect(backend.isEmailedLink(verify))
        #expect(based.isEmailedLink(try LinkURL(parsing: "http://127.0.0.1:9999/base/auth/v1/verify?token=t")))
        #expect(!appServices.isEmailedLink(verify), "an App Services email links to the app itself")
        for other in [
            "http://abcd.supabase.co/auth/v1/verify?token=t", "https://abcd.supabase.co:8443/auth/v1/verify?token=t",
            "https://efgh.supabase.co/auth/v1/verify?token=t", "https://abcd.supabase.co/auth/v1/verify2?token=t",
            "https://abcd.supabase.co/auth/v1/token?token=t", "myapp://abcd.supabase.co/auth/v1/verify",
        ] {
            #expect(!backend.isEmailedLink(try LinkURL(parsing: other)), "\(other)")
        }
    }

    @Test func theBackendsAnswerSaysWhereTheLinkLeadsOrWhyNot() async throws {
        let double = try GoTrueDouble()
        let backend = try supabase(double.baseURL)
        let unknown = try LinkURL(
            parsing: double.baseURL + "/auth/v1/verify?token=nope&type=recovery&redirect_to=myapp%3A%2F%2Freset"
        )
        let answer = await backend.follow(emailedLink: unknown)
        #expect(
            answer
                == .redirect(
                    location: "myapp://reset#error=access_denied&error_code=otp_expired&"
                        + "error_description=Email+link+is+invalid+or+has+expired&sb="
                )
        )
        let untyped = try LinkURL(parsing: double.baseURL + "/auth/v1/verify?token=nope")
        #expect(
            await backend.follow(emailedLink: untyped)
                == .refused(status: 400, said: "Verify requires a verification type")
        )
        let port = try ClosedPort()
        defer { port.close() }
        let closed = try supabase("http://127.0.0.1:\(port.port)")
        guard
            case .unreachable = await closed.follow(
                emailedLink: try LinkURL(parsing: "http://127.0.0.1:\(port.port)/auth/v1/verify")
            )
        else {
            Issue.record("a closed port answered")
            return
        }
    }
}
