package import LinkdFormats

/// The sign-ins `linkd login` starts itself at a backend, both with PKCE: by an emailed magic link (whose 6-digit
/// code works too), or through a provider's page in the browser.
package protocol SignInStarter: Sendable {
    /// Stores a new PKCE verifier for `app`, then asks for a magic link to `email` that leads to `redirectTo`.
    ///
    /// - Throws: ``SignInFailureKind/stateUnwritable`` when the verifier cannot be stored (nothing is sent), the
    ///   backend's refusal, or why there was no answer.
    func requestMagicLink(
        email: String,
        redirectTo: String,
        verifierStore: PKCEStore,
        app: String
    ) async throws(SignInFailure)

    /// Stores a new PKCE verifier for `app` and gives the address that signs in with `provider` in a browser and comes
    /// back to `redirectTo`; nothing is sent from here.
    ///
    /// - Returns: the address, and the verifier stored.
    func startProviderSignIn(
        provider: String,
        redirectTo: String,
        verifierStore: PKCEStore,
        app: String
    ) async throws(SignInFailure) -> (address: String, verifier: Secret?)

    /// The link that brings back, at the app's sign-in link `link`, the session that the magic-link email's `code`
    /// signs in for `email`: the link the daemon is handed, as the email's link would come back. The code works once.
    ///
    /// - Throws: ``BackendError/Kind/codeRejected`` for a code the backend does not take, or why there was no answer.
    func signInLink(email: String, code: Secret, at link: String) async throws(SessionError) -> String
}

/// A reset by the 6-digit code a reset email carries beside its link.
package protocol CodeResetting: Sendable {
    /// The reset that the reset email's `code` for `email` proves, ready to run for `app` as the email's link would.
    /// The code works once.
    ///
    /// - Throws: ``BackendError/Kind/codeRejected`` for a code the backend does not take, or why there was no answer.
    func reset(email: String, code: Secret, app: String) async throws(SessionError) -> ReadyReset
}

/// A reset by the backend's reset function, which takes the new password at once, with no email link.
package protocol ResetFunctionCalling: Sendable {
    /// Calls the reset function for `email` with `password` and `arguments` (a JSON array's text).
    func callResetFunction(email: String, password: Secret, arguments: String) async throws(ResetFailure)
}

/// The backend's account confirmation, asked for again.
package protocol ConfirmationResending: Sendable {
    /// Sends the confirmation email for `email` again.
    func resendConfirmation(email: String) async throws(SessionError)
    /// Runs the backend's confirmation function for `email` again.
    func retryConfirmation(email: String) async throws(SessionError)
}
