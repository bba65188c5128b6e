package import LinkdFormats

/// A backend a sign-in link signs in with, and the sessions it makes.
///
/// Each backend is one conforming type (``SupabaseSignIn``, ``AppServicesSignIn``). Because ``Material`` is the
/// backend's own type, what a link gives can only reach a client of its own backend; ``signIn(of:routeID:app:stores:)``
/// is the one entry a caller needs, whichever backend the app has, and ``SignedInSession`` the one session it gets.
package protocol SignInBackend: Sendable {
    /// What a sign-in link of this backend gives: a code and its stored verifier, a token hash, an id token.
    associatedtype Material: Sendable
    /// The backend's session.
    associatedtype Session: Sendable

    /// What a link routed as `route` (its route id `routeID`) gives a sign-in of `app` with this backend, and who
    /// started the sign-in.
    ///
    /// - Returns: the material, or why the link signs no one in here (``SignInFailureKind/notASignIn``) or was not
    ///   started by linkd though only linkd may start it; nothing was sent.
    func material(
        of route: AuthRoute?,
        routeID: String,
        app: String,
        stores: SignInStores
    ) -> Result<(Material, SignInOrigin), SignInFailure>

    /// Signs in with what the link gave.
    ///
    /// - Throws: the backend's refusal, or why there was no answer.
    func session(_ material: Material) async throws(SessionError) -> Session

    /// Who signed in, as the person knows the account: its email, else `user ID`.
    func account(of session: Session) -> String

    /// The line the app gets (``SignedInSession/delivery(id:app:route:name:)``).
    func delivery(of session: Session, id: String, app: String, route: String, name: PersonName?) -> [UInt8]

    /// The session's tokens, for a redactor.
    func secretValues(of session: Session) -> [String]

    /// The session stepped up to the backend's second factor where the account has one, the code asked from `codes`.
    func steppedUp(
        _ session: Session,
        app: String,
        codes: (any PasswordSource)?
    ) async -> Result<Session, SignInFailure>

    /// Ends the session at the backend.
    ///
    /// - Returns: whether the backend confirmed it.
    func signOut(_ session: Session) async -> Bool
}

extension SignInBackend {
    /// A backend with no second factor of its own hands the session on as it is.
    package func steppedUp(
        _ session: Session,
        app: String,
        codes: (any PasswordSource)?
    ) async -> Result<Session, SignInFailure> {
        .success(session)
    }

    /// The sign-in of the link routed as `route` for `app`, ready to run once the link is recorded.
    package func signIn(
        of route: AuthRoute?,
        routeID: String,
        app: String,
        stores: SignInStores
    ) -> Result<ReadySignIn, SignInFailure> {
        material(of: route, routeID: routeID, app: app, stores: stores).map { material, origin in
            ReadySignIn(origin: origin) { () async throws(SessionError) in
                SignedInSession(self, try await session(material))
            }
        }
    }
}

/// The stores of what `linkd login` keeps for the sign-ins it starts, which prove their links.
package struct SignInStores: Sendable {
    /// The PKCE verifiers of sign-ins started by an emailed link or in the browser.
    package let verifiers: PKCEStore?
    /// The secrets of Sign in with Apple.
    package let apple: PKCEStore?

    package init(verifiers: PKCEStore?, apple: PKCEStore?) {
        self.verifiers = verifiers
        self.apple = apple
    }
}

/// Who started a sign-in, which decides who confirms it.
package enum SignInOrigin: Sendable, Equatable {
    /// linkd, with an emailed link (`linkd login --email`): the verifier it stored proves the link.
    case emailedByLinkd
    /// linkd, in the browser (`linkd login --provider`): its outcome goes to the `linkd login` that waits for it.
    case browser
    /// Not linkd (a magic link, a signup confirmation, an implicit-flow session that arrives by email): it could be
    /// someone else's account mailed to the person.
    case notStartedByLinkd
}

/// A sign-in whose link its backend has taken: it runs once the link is recorded.
package struct ReadySignIn: Sendable {
    /// Who started it.
    package let origin: SignInOrigin
    private let body: @Sendable () async throws(SessionError) -> SignedInSession

    init(origin: SignInOrigin, _ body: @escaping @Sendable () async throws(SessionError) -> SignedInSession) {
        self.origin = origin
        self.body = body
    }

    /// Signs in.
    ///
    /// - Throws: the backend's refusal, or why there was no answer.
    package func run() async throws(SessionError) -> SignedInSession {
        try await body()
    }
}

/// A backend's session that writes its own line for the app and names its own secrets.
package protocol DeliverableSession: Sendable {
    /// The line the app gets (``SignedInSession/delivery(id:app:route:name:)``).
    func delivery(id: String, app: String, route: String, name: PersonName?) -> [UInt8]
    /// The session's tokens, for a redactor.
    var secretValues: [String] { get }
}

extension SignInBackend where Session: DeliverableSession {
    package func delivery(of session: Session, id: String, app: String, route: String, name: PersonName?) -> [UInt8] {
        session.delivery(id: id, app: app, route: route, name: name)
    }

    package func secretValues(of session: Session) -> [String] { session.secretValues }
}

extension GoTrueSession: DeliverableSession {}
extension AppServicesSession: DeliverableSession {}
