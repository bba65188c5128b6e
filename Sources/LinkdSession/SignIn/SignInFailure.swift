/// Why a sign-in did not sign anyone in, or a sign-in (a magic link, a browser or Apple sign-in) could not be
/// started.
package typealias SignInFailure = SessionFailure<SignInFailureKind>

/// What went wrong in a sign-in, as the caller acts on it.
package enum SignInFailureKind: String, SessionFailureKind {
    /// The backend no longer honours the link: expired, or already used.
    case linkExpiredOrUsed = "link_expired"
    /// The backend refused the sign-in or the request.
    case refused = "refused"
    /// The backend cannot be reached, or does not speak its contract.
    case unreachable = "backend_unreachable"
    /// The backend failed in a way worth retrying later (5xx, rate limit).
    case temporary = "backend_temporary"
    /// linkd cannot write what the sign-in needs kept (its PKCE verifier or Apple secret); nothing was sent.
    case stateUnwritable = "state_unwritable"
    /// The link signs no one in with the app's backend (a reset link, an error redirect); nothing was sent.
    case notASignIn = "not_a_signin"
    /// A code or an Apple callback of a sign-in linkd did not start (no stored verifier, a foreign `state`).
    case notStartedByLinkd = "not_started_by_linkd"
    /// An Apple callback with no id token.
    case noIDToken = "no_id_token"
    /// An Apple id token whose nonce is not the one linkd sent.
    case nonceMismatch = "nonce_mismatch"

    package init(_ outcome: SessionOutcome) {
        self =
            switch outcome {
            case .linkExpiredOrUsed: .linkExpiredOrUsed
            case .passwordRejected, .refused, .notAnEmailedLink: .refused
            case .unreachable: .unreachable
            case .temporary: .temporary
            }
    }
}
