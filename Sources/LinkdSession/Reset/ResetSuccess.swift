/// What a successful reset did.
///
/// The account is shown as the backend named it, masked; the password itself is never part of it.
package struct ResetSuccess: Sendable, Equatable {
    /// The account, masked (`a***@example.com`), or the app's account when the backend does not say.
    package var account: String
    /// Whether the link's session was signed out afterwards (Supabase).
    package var signedOut: Bool

    /// A success for `account`.
    package init(account: String, signedOut: Bool) {
        self.account = account
        self.signedOut = signedOut
    }
}
