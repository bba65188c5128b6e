import Foundation
import LinkdFormats
import LinkdRouting
import LinkdSession
import Testing

/// The reset seam: each backend says what a routed link gives its reset, and refuses, before anything is sent, a link
/// that is no reset of its own (another backend's link, a sign-in, a PKCE code linkd did not ask for).
@Suite struct ResetMaterialTests {
    private static let supabase = SupabaseBackend(
        client: GoTrueClient(url: "https://project.supabase.co", apiKey: "anon", transport: CurlTransport())
    )
    private static let appServices = AppServicesBackend(
        client: AppServicesClient(
            url: "https://services.cloud.mongodb.com",
            appID: "notes-abcde",
            transport: CurlTransport()
        )
    )

    private func route(_ link: String, _ format: AuthLinkFormat) throws -> AuthRoute {
        try format.route(LinkURL(parsing: link))
    }

    @Test func aSupabaseRecoverySessionAndTokenHashAreItsMaterial() throws {
        let session = try route("myapp://reset#access_token=a.b.c&refresh_token=r1&type=recovery", .supabase)
        guard
            case .session(let access, let refresh) = try Self.supabase.material(
                of: session,
                routeID: "supabase.recovery",
                app: "n",
                verifiers: nil
            ).get()
        else {
            Issue.record("not a session")
            return
        }
        #expect(access.revealed() == "a.b.c" && refresh.revealed() == "r1")

        let otp = try route("myapp://reset?token_hash=h1&type=recovery", .supabase)
        guard
            case .tokenHash(let hash, "recovery") = try Self.supabase.material(
                of: otp,
                routeID: "supabase.otp",
                app: "n",
                verifiers: nil
            ).get()
        else {
            Issue.record("not a token hash")
            return
        }
        #expect(hash.revealed() == "h1")
    }

    @Test func aSupabaseSignInLinkIsNoResetAndSaysItsType() throws {
        let magic = try route("myapp://reset?token_hash=h1&type=magiclink", .supabase)
        let failure = try #require(
            Self.supabase.material(of: magic, routeID: "supabase.otp", app: "n", verifiers: nil).failure
        )
        #expect(failure.kind == .notAReset)
        #expect(
            failure.message == "a 'supabase.otp' (type magiclink) link is not a password reset; linkd refuses it at a "
                + "reset link"
        )
    }

    @Test func aPKCECodeIsAResetOnlyWithTheVerifierOfARequestLinkdMade() async throws {
        let code = try route("myapp://reset?code=c1", .supabase)
        try await withTemporaryStore { store in
            let unasked = try #require(
                Self.supabase.material(of: code, routeID: "supabase.pkce", app: "n", verifiers: store).failure
            )
            #expect(unasked.kind == .notAReset && unasked.message.hasPrefix("linkd did not request this reset for n"))
            let verifier = Secret(PKCE.makeVerifier())
            try store.store(verifier, app: "n", now: unixNow)
            guard
                case .pkce(let sent, let read) = try Self.supabase.material(
                    of: code,
                    routeID: "supabase.pkce",
                    app: "n",
                    verifiers: store
                ).get()
            else {
                Issue.record("not a code")
                return
            }
            #expect(sent.revealed() == "c1" && read.value == verifier)
            #expect(store.verifier(for: "n", now: unixNow)?.value == verifier, "read, not taken")
        }
    }

    @Test func eachBackendRefusesTheOthersResetLink() throws {
        let appServicesLink = try route("https://notes.example.com/reset?token=t1&tokenId=i1", .appservices)
        let supabaseLink = try route("myapp://reset#access_token=a.b.c&refresh_token=r1&type=recovery", .supabase)
        let pair = try Self.appServices.material(
            of: appServicesLink,
            routeID: "appservices.reset",
            app: "n",
            verifiers: nil
        ).get()
        #expect(pair.token.revealed() == "t1" && pair.tokenID.revealed() == "i1")
        #expect(
            Self.appServices.material(of: supabaseLink, routeID: "supabase.recovery", app: "n", verifiers: nil)
                .failure?.kind == .notAReset
        )
        #expect(
            Self.supabase.material(of: appServicesLink, routeID: "appservices.reset", app: "n", verifiers: nil)
                .failure?.kind == .notAReset
        )
        #expect(Self.supabase.material(of: nil, routeID: "note", app: "n", verifiers: nil).failure?.kind == .notAReset)
    }

    @Test func onlyASupabaseResetEmailLeadsToTheLinkTheRequestNames() {
        #expect(SupabaseBackend.emailLeadsToRequestedLink)
        #expect(!AppServicesBackend.emailLeadsToRequestedLink)
    }
}
