package import LinkdFormats

/// Where the new password comes from: the `linkd open` client's terminal, stdin or askpass program.
///
/// A reset asks it once, and again after each password the backend refused, with that refusal.
package protocol PasswordSource: Sendable {
    /// Asks for the new password.
    ///
    /// - Parameters:
    ///   - prompt: what to ask, naming the account (already sanitised for display).
    ///   - rejection: the backend's refusal of the password given before, or `nil` on the first ask.
    /// - Returns: the password, or `nil` when the person cancelled or this source cannot ask again.
    func newPassword(prompt: String, rejection: BackendError?) async -> Secret?
}
