package import LinkdFormats

/// What a reset link gives the session layer.
package enum ResetMaterial: Sendable {
    /// `supabase.recovery`: the session in the link's fragment.
    case supabaseSession(accessToken: Secret, refreshToken: Secret)
    /// `supabase.otp` with `type=recovery`: a token hash for `POST /verify`.
    case supabaseTokenHash(Secret, type: String)
    /// `supabase.pkce` of a reset linkd requested: the link's code and the stored verifier.
    case supabasePKCE(code: Secret, verifier: Secret)
    /// `appservices.reset`: the token pair, used directly by the reset call.
    case appServices(token: Secret, tokenID: Secret)
}

/// The backend a reset talks to.
package enum ResetBackend: Sendable {
    case supabase(GoTrueClient)
    case appServices(AppServicesClient)
}

/// Where the new password comes from: the `linkd open` client's terminal, stdin or askpass program.
package protocol PasswordSource: Sendable {
    /// Asks for the new password; `rejection` is the backend's refusal of the one given before. `nil` when the
    /// person cancelled, or when this source cannot ask again.
    func newPassword(prompt: String, rejection: BackendError?) async -> Secret?
}

/// When the requests of a reset must end; read by ``CurlTransport``.
package enum RequestDeadline {
    @TaskLocal package static var current: ContinuousClock.Instant?
}
