package import LinkdFormats

/// Atlas App Services as a sign-in link's backend: a Sign in with Apple callback of a sign-in `linkd login` started.
/// Its other sign-in link, an email confirmation, signs no one in (``SessionBackend/emailConfirmation(of:)``).
extension AppServicesSignIn: SignInBackend {
    /// What an App Services sign-in link gives: an Apple id token, and the secret whose hash is its nonce.
    package struct Material: Sendable {
        let idToken: Secret
        let secret: PKCEVerifier
    }

    package func material(
        of route: AuthRoute?,
        routeID: String,
        app: String,
        stores: SignInStores
    ) -> Result<(Material, SignInOrigin), SignInFailure> {
        switch route {
        case .appleCallback(let callback):
            callback.signInProof(app: app, store: stores.apple).map { (Material(idToken: $0, secret: $1), .browser) }
        case .supabasePKCE, .supabaseOTP, .supabaseSession, .firebaseAction, .supabaseError, .oauthError,
            .supabaseRecovery, .oauthCallback, .appServicesConfirm, .appServicesReset, nil:
            .failure(.notASignIn(routeID))
        }
    }

    package func session(_ material: Material) async throws(SessionError) -> AppServicesSession {
        try await signInWithApple(idToken: material.idToken, secret: material.secret)
    }

    package func account(of session: AppServicesSession) -> String {
        session.email.isEmpty ? "user \(session.userID)" : session.email
    }
}
