package import LinkdFormats
import LinkdRouting

/// The session layer's client for an app's backend: one case per backend the configuration can name, each holding
/// the backend's own ``AuthBackend`` type, so that a link can only be paired with a client of its own backend.
package enum SessionBackend: Sendable {
    case supabase(SupabaseBackend)
    case appServices(AppServicesBackend)

    /// The backend as a sign-in link sees it.
    package var signIn: any SignInBackend {
        switch self {
        case .supabase(let backend): SupabaseSignIn(client: backend.client)
        case .appServices(let backend): AppServicesSignIn(client: backend.client)
        }
    }

    /// The sign-in that `linkd login` starts itself, by an emailed magic link or through a provider's page in the
    /// browser (both with PKCE): Supabase's. `nil` for App Services, where linkd signs in with Apple only.
    package var startedSignIn: SupabaseSignIn? {
        guard case .supabase(let backend) = self else { return nil }
        return SupabaseSignIn(client: backend.client)
    }

    /// Confirms an account's email at the backend, once; it signs no one in.
    package typealias EmailConfirmation = @Sendable () async throws(SessionError) -> Void

    /// The confirmation `route` makes at this backend when it is the backend's email-confirmation link (App Services'
    /// `appservices.confirm`: `POST …/local-userpass/confirm` with its token pair); `nil` for any other link.
    package func emailConfirmation(of route: AuthRoute?) -> EmailConfirmation? {
        guard case .appServices(let backend) = self, case .appServicesConfirm(let link) = route else { return nil }
        return { () async throws(SessionError) in
            try await backend.confirmEmail(token: link.token, tokenID: link.tokenID)
        }
    }

    /// The backend as a reset sees it.
    package var reset: any AuthBackend {
        switch self {
        case .supabase(let backend): backend
        case .appServices(let backend): backend
        }
    }
}

extension BackendConfig {
    /// The session layer's client for this backend, on the live transport (with the backend's `caFile`): the one
    /// place a backend named in the configuration becomes its client.
    package func makeBackend() -> SessionBackend {
        let transport = CurlTransport(caFile: caFile)
        switch kind {
        case .supabase(let apiKey):
            return .supabase(
                SupabaseBackend(client: GoTrueClient(url: url.href, apiKey: apiKey.revealed(), transport: transport))
            )
        case .appServices(let appID):
            return .appServices(
                AppServicesBackend(client: AppServicesClient(url: url.href, appID: appID, transport: transport))
            )
        }
    }
}
