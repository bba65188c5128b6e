/// A failure of the session layer told for a person: a reset's (``ResetFailure``) or a sign-in's
/// (``SignInFailure``), each with the kinds its callers act on; its kind decides the exit code (through the wire's
/// failure kinds).
///
/// The message carries the backend's words and never a token or password.
package struct SessionFailure<Kind: SessionFailureKind>: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as the caller acts on it.
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

    /// The failure of a verifier or secret that could not be stored: nothing was requested.
    package init(_ error: PKCEStore.Unwritable) {
        self.init(kind: .stateUnwritable, message: "\(error); nothing was requested")
    }

    /// The failure a session-layer error stands for.
    package init(_ error: SessionError) {
        let (outcome, message) = error.outcome
        self.init(kind: Kind(outcome), message: message)
    }
}

/// The kinds of one ``SessionFailure``: words for the wire (`link_expired`), one for each way of failing that
/// its callers tell apart.
package protocol SessionFailureKind: RawRepresentable<String>, Sendable, Equatable {
    /// linkd cannot write what the step needs kept (a PKCE verifier, an Apple secret); nothing was sent.
    static var stateUnwritable: Self { get }
    /// The kind of a failure whose backend error means `outcome`.
    init(_ outcome: SessionOutcome)
}

/// What a ``SessionError`` means for the person, before a reset or a sign-in names it in its own kinds.
package enum SessionOutcome: Sendable, Equatable {
    /// The backend no longer honours the link.
    case linkExpiredOrUsed
    /// The backend refused the new password.
    case passwordRejected
    /// The backend refused the request for another reason.
    case refused
    /// The backend's token says the session was made by no emailed link.
    case notAnEmailedLink
    /// The backend cannot be reached, or does not speak its contract.
    case unreachable
    /// Worth retrying later: a 5xx, a rate limit.
    case temporary
}

extension SessionError {
    /// What the error means, and one line for a person with the backend's words in it.
    package var outcome: (SessionOutcome, message: String) {
        switch self {
        case .backend(let backend):
            switch backend.kind {
            case .linkExpiredOrUsed:
                (.linkExpiredOrUsed, "this link has expired or was already used; request a new email (\(backend))")
            case .passwordRejected: (.passwordRejected, "the new password was refused: \(backend)")
            case .rateLimited: (.temporary, "the backend asks to wait: \(backend); try again later")
            case .temporary: (.temporary, "the backend failed: \(backend); try again later")
            case .refused: (.refused, "the backend refused the request: \(backend)")
            case .codeRejected: (.refused, "the code was refused: \(backend)")
            case .secondFactorRequired: (.refused, "the backend asks for a second factor: \(backend)")
            }
        case .transport(let transport): (.unreachable, transport.description)
        case .badResponse: (.unreachable, description)
        case .notAnEmailedLink: (.notAnEmailedLink, description)
        case .noUsableSecondFactor: (.refused, description)
        }
    }
}
