package import LinkdFormats

/// A session a backend signed in, with the backend that made it (which alone may end it): what a caller of any
/// backend delivers, steps up and signs out.
package struct SignedInSession: Sendable {
    /// Who signed in, as the person knows the account: its email, else `user ID`.
    package let account: String
    /// The session's tokens, for a redactor.
    package let secretValues: [String]
    private let line: @Sendable (_ id: String, _ app: String, _ route: String, _ name: PersonName?) -> [UInt8]
    private let stepUp: @Sendable (_ app: String, _ codes: (any PasswordSource)?) async -> Result<Self, SignInFailure>
    private let end: @Sendable () async -> Bool

    /// `session`, which `backend` signed in.
    package init<Backend: SignInBackend>(_ backend: Backend, _ session: Backend.Session) {
        account = backend.account(of: session)
        secretValues = backend.secretValues(of: session)
        line = { id, app, route, name in backend.delivery(of: session, id: id, app: app, route: route, name: name) }
        stepUp = { app, codes in
            await backend.steppedUp(session, app: app, codes: codes).map { SignedInSession(backend, $0) }
        }
        end = { await backend.signOut(session) }
    }

    /// The line the app gets (the same shape from every backend, with its `backend` named), and a newline; `name`,
    /// the one Sign in with Apple gave at the first sign-in, as the user's `name`.
    ///
    /// - Parameters:
    ///   - id: the link's spool id, by which the app can recognise a repeat.
    ///   - app: the app's id.
    ///   - route: the id of the link's route (`supabase.pkce`).
    package func delivery(id: String, app: String, route: String, name: PersonName? = nil) -> [UInt8] {
        line(id, app, route, name)
    }

    /// The session stepped up to the backend's second factor where the account has one (Supabase MFA), the code
    /// asked from `codes` (`nil` when no one can be asked).
    package func steppedUp(app: String, codes: (any PasswordSource)?) async -> Result<Self, SignInFailure> {
        await stepUp(app, codes)
    }

    /// Ends the session at the backend that signed it in.
    ///
    /// - Returns: whether the backend confirmed it.
    package func signOut() async -> Bool {
        await end()
    }
}
