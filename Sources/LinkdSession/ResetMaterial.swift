package import LinkdFormats

/// What a reset link gives the session layer.
///
/// Deprecated: replaced by each backend's own `Material` (``SupabaseBackend/Material``,
/// ``AppServicesBackend/Material``).
package enum ResetMaterial: Sendable {
    /// `supabase.recovery`: the session in the link's fragment.
    case supabaseSession(accessToken: Secret, refreshToken: Secret)
    /// `supabase.otp` with `type=recovery`: a token hash for `POST /verify`.
    case supabaseTokenHash(Secret, type: String)
    /// `supabase.pkce` of a reset linkd requested: the link's code and the stored verifier.
    case supabasePKCE(code: Secret, verifier: Secret)
    /// `appservices.reset`: the token pair, used directly by the reset call.
    case appServices(token: Secret, tokenID: Secret)

    /// The material as a Supabase link's, or `nil` for an App Services link.
    var supabase: SupabaseBackend.Material? {
        switch self {
        case .supabaseSession(let accessToken, let refreshToken):
            .session(accessToken: accessToken, refreshToken: refreshToken)
        case .supabaseTokenHash(let hash, let type): .tokenHash(hash, type: type)
        case .supabasePKCE(let code, let verifier): .pkce(code: code, verifier: verifier)
        case .appServices: nil
        }
    }

    /// The material as an App Services link's, or `nil` for a Supabase link.
    var appServices: AppServicesBackend.Material? {
        guard case .appServices(let token, let tokenID) = self else { return nil }
        return AppServicesBackend.Material(token: token, tokenID: tokenID)
    }
}

/// The backend a reset talks to.
///
/// Deprecated: replaced by the ``AuthBackend`` types ``SupabaseBackend`` and ``AppServicesBackend``.
package enum ResetBackend: Sendable {
    /// Supabase Auth (GoTrue).
    case supabase(GoTrueClient)
    /// Atlas App Services.
    case appServices(AppServicesClient)
}
