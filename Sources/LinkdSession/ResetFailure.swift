/// Why a reset did not change the password, or a reset email was not requested, told for a person; its kind decides
/// the exit code (through the wire's failure kinds).
///
/// The message carries the backend's words and never a token or password.
package struct ResetFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as the caller acts on it.
    package enum Kind: String, Sendable, Equatable {
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
    }

    /// What went wrong.
    package var kind: Kind
    /// One line for a person; the backend's words are in it, no secret is.
    package var message: String

    /// A failure of `kind`, told by `message`.
    package init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    package var description: String { message }

    /// The failure of a verifier that could not be stored: nothing was requested.
    package init(_ error: PKCEStore.Unwritable) {
        self.init(kind: .stateUnwritable, message: "\(error); nothing was requested")
    }

    /// The failure a session-layer error stands for.
    package init(_ error: SessionError) {
        switch error {
        case .backend(let backend):
            switch backend.kind {
            case .linkExpiredOrUsed:
                self.init(
                    kind: .linkExpiredOrUsed,
                    message: "this link has expired or was already used; request a new email (\(backend))"
                )
            case .passwordRejected:
                self.init(kind: .passwordRejected, message: "the new password was refused: \(backend)")
            case .rateLimited:
                self.init(kind: .temporary, message: "the backend asks to wait: \(backend); try again later")
            case .temporary:
                self.init(kind: .temporary, message: "the backend failed: \(backend); try again later")
            case .refused:
                self.init(kind: .refused, message: "the backend refused the request: \(backend)")
            }
        case .transport(let transport):
            self.init(kind: .unreachable, message: transport.description)
        case .badResponse:
            self.init(kind: .unreachable, message: error.description)
        case .notAnEmailedLink:
            self.init(kind: .notAReset, message: error.description)
        }
    }
}
