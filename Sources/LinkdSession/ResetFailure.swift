/// Why a reset did not change the password, or a reset email was not requested.
package typealias ResetFailure = SessionFailure<ResetFailureKind>

/// What went wrong in a reset, as the caller acts on it.
package enum ResetFailureKind: String, SessionFailureKind {
    /// The backend no longer honours the link: expired, or already used.
    case linkExpiredOrUsed = "link_expired"
    /// The backend refused the new password (weak, same as before).
    case passwordRejected = "password_rejected"
    /// The link is not one this reset can use, or the backend refused it for another reason.
    case refused = "refused"
    /// The backend's own token says the link's session was not made by a reset email (signed in by password,
    /// OAuth, SSO): whatever the link claims, it is no reset — as a route that is no reset is not.
    case notAReset = "not_a_reset"
    /// The backend cannot be reached, or does not speak its contract.
    case unreachable = "backend_unreachable"
    /// The backend failed in a way worth retrying later (5xx, rate limit).
    case temporary = "backend_temporary"
    /// No new password was given.
    case cancelled = "cancelled"
    /// linkd cannot write what the step needs kept (the PKCE verifier of a reset it requests); nothing was sent.
    case stateUnwritable = "state_unwritable"

    package init(_ outcome: SessionOutcome) {
        self =
            switch outcome {
            case .linkExpiredOrUsed: .linkExpiredOrUsed
            case .passwordRejected: .passwordRejected
            case .refused: .refused
            case .notAnEmailedLink: .notAReset
            case .unreachable: .unreachable
            case .temporary: .temporary
            }
    }
}
