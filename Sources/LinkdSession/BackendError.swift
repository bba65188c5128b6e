/// A backend's refusal of a request, in the backend's own words, sorted into what linkd does about it.
package struct BackendError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the refusal means for the reset.
    package enum Kind: Sendable, Equatable {
        /// The link (or the session made from it) is no longer honoured: expired or already used.
        case linkExpiredOrUsed
        /// The new password was refused (weak, same as before, too long); ``BackendError/reasons`` may say why.
        case passwordRejected
        /// Too many requests; worth trying again later.
        case rateLimited
        /// A server-side failure worth retrying (5xx, maintenance).
        case temporary
        /// A code the person typed was refused (a wrong or stale authenticator code); it may be asked again.
        case codeRejected
        /// The backend asks for a second factor (MFA) before it does what was asked (`insufficient_aal`).
        case secondFactorRequired
        /// Any other refusal: the request itself was wrong for this backend.
        case refused
    }

    package var kind: Kind
    /// The HTTP status.
    package var status: Int
    /// The backend's error code (`same_password`, `UserpassTokenInvalid`), or empty when it sent none.
    package var code: String
    /// The backend's message, sanitised for display, at most 300 characters.
    package var message: String
    /// For a weak password, the backend's reasons (`length`, `characters`, `pwned`).
    package var reasons: [String]

    package init(kind: Kind, status: Int, code: String, message: String, reasons: [String] = []) {
        self.kind = kind
        self.status = status
        self.code = code
        self.message = message
        self.reasons = reasons
    }

    package var description: String {
        let reasonText = reasons.isEmpty ? "" : " (reasons: \(reasons.joined(separator: ", ")))"
        let codeText = code.isEmpty ? "HTTP \(status)" : "\(code), HTTP \(status)"
        return "\(message)\(reasonText) [\(codeText)]"
    }
}
