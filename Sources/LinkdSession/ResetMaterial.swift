public import LinkdFormats

/// What a reset link gives the session layer (DESIGN.md §6 "The reset, end to end").
public enum ResetMaterial: Sendable {
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
public enum ResetBackend: Sendable {
    case supabase(GoTrueClient)
    case appServices(AppServicesClient)
}

/// Where the new password comes from: the `linkd open` client's terminal, stdin or askpass program.
public protocol PasswordSource: Sendable {
    /// Asks for the new password; `rejection` is the backend's refusal of the one given before. `nil` when the
    /// person cancelled, or when this source cannot ask again.
    func newPassword(prompt: String, rejection: BackendError?) async -> Secret?
}

/// When the requests of a reset must end; read by ``CurlTransport``.
public enum RequestDeadline {
    @TaskLocal public static var current: ContinuousClock.Instant?
}
