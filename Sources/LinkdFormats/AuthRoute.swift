/// A password-reset or sign-in link, read into the typed value of its format.
public enum AuthRoute: Sendable, Hashable {
    case firebaseAction(FirebaseAction)
    case supabaseError(SupabaseError)
    case oauthError(OAuthError)
    case appleCallback(AppleCallback)
    case supabaseRecovery(SupabaseSession)
    case supabaseSession(SupabaseSession)
    case oauthCallback(OAuthCallback)
    case supabasePKCE(SupabasePKCE)
    case supabaseOTP(SupabaseOTP)
    case appServicesConfirm(AppServicesToken)
    case appServicesReset(AppServicesToken)

    /// The route id (`supabase.recovery`).
    public var id: String {
        switch self {
        case .firebaseAction: "firebase.action"
        case .supabaseError: "supabase.error"
        case .oauthError: "oauth.error"
        case .appleCallback: "apple.callback"
        case .supabaseRecovery: "supabase.recovery"
        case .supabaseSession: "supabase.session"
        case .oauthCallback: "oauth.callback"
        case .supabasePKCE: "supabase.pkce"
        case .supabaseOTP: "supabase.otp"
        case .appServicesConfirm: "appservices.confirm"
        case .appServicesReset: "appservices.reset"
        }
    }

    /// The fields by wire name, in the order of the format's table; secrets stay ``Secret``s.
    public var fields: RouteFields {
        switch self {
        case .firebaseAction(let action): action.fields
        case .supabaseError(let error): error.fields
        case .oauthError(let error): error.fields
        case .appleCallback(let callback): callback.fields
        case .supabaseRecovery(let session), .supabaseSession(let session): session.fields
        case .oauthCallback(let callback): callback.fields
        case .supabasePKCE(let pkce): pkce.fields
        case .supabaseOTP(let otp): otp.fields
        case .appServicesConfirm(let token), .appServicesReset(let token): token.fields
        }
    }

    /// The claims of the route's JWT (a Supabase access token or an Apple id token), decoded without verification.
    public var claims: JWTClaims? {
        switch self {
        case .supabaseRecovery(let session), .supabaseSession(let session): session.claims
        case .appleCallback(let callback): callback.claims
        case .firebaseAction, .supabaseError, .oauthError, .oauthCallback, .supabasePKCE, .supabaseOTP,
            .appServicesConfirm, .appServicesReset:
            nil
        }
    }
}
