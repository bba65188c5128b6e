package import LinkdFormats

/// The backend a `signin` link signs in with: Supabase Auth for each sign-in route, App Services for an Apple
/// callback (its other sign-in link, an email confirmation, signs no one in).
package enum SignInBackend: Sendable {
    case supabase(SupabaseSignIn)
    case appServices(AppServicesSignIn)

    /// A session either backend signed in, with the sign-in that made it (which alone may end it).
    package enum Session: Sendable {
        case supabase(GoTrueSession, SupabaseSignIn)
        case appServices(AppServicesSession, AppServicesSignIn)

        /// Who signed in, as the person knows the account: its email, else `user ID`.
        package var account: String {
            let (email, id) =
                switch self {
                case .supabase(let session, _): (session.user.email, session.user.id)
                case .appServices(let session, _): (session.email, session.userID)
                }
            return email.isEmpty ? "user \(id)" : email
        }

        /// The line the app gets (the same shape from both backends, with its `backend` named); `name`, the one
        /// Sign in with Apple gave at the first sign-in, as the user's `name`.
        package func delivery(id: String, app: String, route: String, name: PersonName? = nil) -> [UInt8] {
            switch self {
            case .supabase(let session, _): session.delivery(id: id, app: app, route: route, name: name)
            case .appServices(let session, _): session.delivery(id: id, app: app, route: route, name: name)
            }
        }

        /// The session's tokens, for a redactor.
        package var secretValues: [String] {
            switch self {
            case .supabase(let session, _): session.secretValues
            case .appServices(let session, _): session.secretValues
            }
        }

        /// The session stepped up to the backend's second factor where the account has one (Supabase MFA; see
        /// ``SupabaseSignIn/steppedUp(_:app:codes:)``); an App Services session as it is.
        package func steppedUp(app: String, codes: (any PasswordSource)?) async -> Result<Session, SignInFailure> {
            switch self {
            case .supabase(let session, let signIn):
                await signIn.steppedUp(session, app: app, codes: codes).map { .supabase($0, signIn) }
            case .appServices: .success(self)
            }
        }

        /// Ends the session at the backend that signed it in.
        ///
        /// - Returns: whether the backend confirmed it.
        package func signOut() async -> Bool {
            switch self {
            case .supabase(let session, let signIn): await signIn.signOut(session)
            case .appServices(let session, let signIn): await signIn.signOut(session)
            }
        }
    }

    /// Signs in with what the link gave.
    ///
    /// - Throws: the backend's refusal, or why there was no answer.
    package func session(_ material: SignInMaterial) async throws(SessionError) -> Session {
        switch self {
        case .supabase(let signIn):
            return .supabase(try await material.session(signIn), signIn)
        case .appServices(let signIn):
            // The daemon sends only an Apple callback to App Services.
            guard case .appleIDToken(let token, let secret) = material else {
                preconditionFailure("App Services signs in only with an Apple id token")
            }
            return .appServices(try await signIn.signInWithApple(idToken: token, secret: secret), signIn)
        }
    }
}
