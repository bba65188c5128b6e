package import LinkdFormats

/// Where the new password and the codes a reset needs come from: the `linkd open` client's terminal, stdin or askpass
/// program.
///
/// A reset asks it once, and again after each password or code the backend refused, with that refusal.
package protocol PasswordSource: Sendable {
    /// Asks for the new password.
    ///
    /// - Parameters:
    ///   - prompt: what to ask, naming the account (already sanitised for display).
    ///   - rejection: the backend's refusal of the password given before, or `nil` on the first ask.
    /// - Returns: the password, or `nil` when the person cancelled or this source cannot ask again.
    func newPassword(prompt: String, rejection: BackendError?) async -> Secret?

    /// Asks for a code: the one an authenticator app shows for the account's second factor, or one the backend
    /// texted or emailed.
    ///
    /// - Parameters:
    ///   - prompt: what to ask, naming the account and the factor (already sanitised for display).
    ///   - rejection: the backend's refusal of the code given before, or `nil` on the first ask.
    /// - Returns: the code, or `nil` when the person cancelled or this source cannot ask again.
    func code(prompt: String, rejection: BackendError?) async -> Secret?
}
