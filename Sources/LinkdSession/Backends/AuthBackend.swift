package import LinkdFormats

/// An auth backend a password reset talks to, with the material its reset links give.
///
/// Each backend is one conforming type (``SupabaseBackend``, ``AppServicesBackend``). Because ``Material`` is the
/// backend's own type, a reset can only ever pair a backend with a link of that backend: a Supabase link cannot
/// reach an App Services client. ``PasswordReset`` runs the steps in order; the backend says how each is done.
package protocol AuthBackend: Sendable {
    /// What a reset link of this backend gives: tokens, a code and its stored verifier.
    associatedtype Material: Sendable
    /// What the reset holds between establishing and setting the password (a live session, or the link's token).
    associatedtype Session: Sendable

    /// Whether a reset email this backend sends leads to a link linkd names in the request (`redirectTo`), so that
    /// `linkd reset request` needs a reset link of the app to name; `false` when the backend's own settings name it.
    static var emailLeadsToRequestedLink: Bool { get }

    /// The path, under the backend's URL, of the links its emails carry when they point at the backend itself (which
    /// checks the token and redirects to the app's link): Supabase's `/auth/v1/verify`. `nil` when its emails link to
    /// the app directly.
    static var emailedLinkPath: String? { get }

    /// What a link routed as `route` (its route id `routeID`) gives a reset of `app` with this backend.
    ///
    /// - Parameter verifiers: the store of the PKCE verifiers of resets `linkd reset request` asked for.
    /// - Returns: the material, or ``ResetFailureKind/notAReset`` when the link is no reset link of this backend
    ///   (or one linkd did not request); nothing was sent.
    func material(
        of route: AuthRoute?,
        routeID: String,
        app: String,
        verifiers: PKCEStore?
    ) -> Result<
        Material, ResetFailure
    >

    /// Proves the link is live and finds whose password it is.
    ///
    /// - Parameters:
    ///   - material: the link's tokens.
    ///   - appName: the app, for backends that do not name the account.
    ///   - retry: wraps each request sent here, so that a request that failed on the way is sent again.
    /// - Returns: the session, and whose password it sets, as the backend named it.
    /// - Throws: the backend's refusal (an expired or used link), a session that no reset email made, or why the
    ///   backend gave no answer.
    func establish(
        _ material: Material,
        appName: String,
        retry: RequestRetry
    ) async throws(SessionError) -> (session: Session, account: ResetAccount)

    /// The second factor the account must prove before `session` may set its password (MFA), or `nil` when it needs
    /// none.
    ///
    /// - Parameters:
    ///   - afterRefusal: the backend refused the password for want of one (`insufficient_aal`): the account's factors
    ///     are looked up again, whatever `session` says.
    ///   - retry: wraps each request sent here.
    /// - Throws: ``SessionError/noUsableSecondFactor(types:)`` when the account has only factors linkd cannot prove,
    ///   or why the backend gave no answer.
    func secondFactor(
        of session: Session,
        afterRefusal: Bool,
        retry: RequestRetry
    ) async throws(SessionError) -> SecondFactor?

    /// Proves `factor` with `code` for `session`: the session that may then set the password.
    ///
    /// - Throws: ``BackendError/Kind/codeRejected`` for a wrong or stale code, or why the backend gave no answer.
    func proveSecondFactor(
        _ factor: SecondFactor,
        code: Secret,
        in session: Session
    ) async throws(SessionError)
        -> Session

    /// Sends the new password, once; never retried, since the backend may have taken it.
    ///
    /// - Throws: the backend's refusal (a weak password, an expired link), or why it gave no answer.
    func setPassword(_ password: Secret, in session: Session) async throws(SessionError)

    /// Ends the link's session after the password was set; a failure does not undo the change.
    ///
    /// - Returns: whether a session was signed out (`false` when the backend keeps none, or the request failed).
    func signOut(_ session: Session) async -> Bool

    /// Asks the backend to email a reset link to `email`.
    ///
    /// A backend that proves its links with PKCE stores the verifier in `verifierStore` before the request goes out
    /// (the email may arrive before the answer), and forgets it when the request fails.
    ///
    /// - Parameters:
    ///   - email: the account's address.
    ///   - redirectTo: the link the email should lead to (a backend whose emails lead to a link it is configured
    ///     with ignores it).
    ///   - verifierStore: where the PKCE verifier is kept for the link to find.
    ///   - app: the app the verifier is kept for.
    /// - Throws: why nothing was requested: the verifier could not be stored, or the backend refused or gave no
    ///   answer.
    func requestReset(
        email: String,
        redirectTo: String,
        verifierStore: PKCEStore,
        app: String
    ) async throws(ResetFailure)
}

extension AuthBackend {
    /// The reset of the link routed as `route` for `app`, ready to run; ``ResetFailureKind/notAReset`` when it is no
    /// reset link of this backend. This is the one entry a caller needs, whichever backend the app has.
    package func reset(
        of route: AuthRoute?,
        routeID: String,
        app: String,
        verifiers: PKCEStore?
    ) -> Result<ReadyReset, ResetFailure> {
        material(of: route, routeID: routeID, app: app, verifiers: verifiers).map { material in
            ReadyReset { passwords, beforeSending in
                await PasswordReset(backend: self, material: material, appName: app, beforeSending: beforeSending)
                    .run(passwords: passwords)
            }
        }
    }
}

/// A reset whose link its backend has taken: it runs once the new password can be asked for.
package struct ReadyReset: Sendable {
    typealias Body =
        @Sendable (any PasswordSource, @escaping @Sendable () async -> Bool) async -> Result<
            ResetSuccess, ResetFailure
        >
    private let body: Body

    init(_ body: @escaping Body) {
        self.body = body
    }

    /// Runs the reset, asking `passwords` for the new password (see ``PasswordReset/run(passwords:)``).
    ///
    /// - Parameter beforeSending: called right before the new password is sent; `false` stops the reset there.
    package func run(
        passwords: any PasswordSource,
        beforeSending: @escaping @Sendable () async -> Bool
    ) async -> Result<ResetSuccess, ResetFailure> {
        await body(passwords, beforeSending)
    }
}

extension ResetFailure {
    /// The refusal of a link routed as `route` (its route id `routeID`) that is not a reset of the app's backend: a
    /// session of another kind at a reset link may be an attacker's own session mailed to the victim.
    package static func notAReset(_ route: AuthRoute?, routeID: String) -> ResetFailure {
        let type = route?.fields["type"].map { " (type \(DisplayText.sanitize($0.description)))" } ?? ""
        return ResetFailure(
            kind: .notAReset,
            message: "a '\(routeID)'\(type) link is not a password reset; linkd refuses it at a reset link"
        )
    }
}
