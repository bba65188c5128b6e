package import LinkdFormats
import LinkdSystem

/// Supabase Auth as a sign-in link's backend: a PKCE code of a sign-in `linkd login` started, an emailed token hash
/// of a sign-in type, an implicit-flow link's tokens, and a Sign in with Apple callback.
extension SupabaseSignIn: SignInBackend {
    /// What a Supabase sign-in link gives.
    package enum Material: Sendable {
        /// A code of a sign-in linkd started, and the verifier that proves it.
        case pkce(code: Secret, verifier: PKCEVerifier)
        /// An emailed link's token hash, for `POST /verify`.
        case tokenHash(Secret, type: String)
        /// An implicit-flow link's tokens.
        case session(accessToken: Secret, refreshToken: Secret)
        /// An Apple id token of a sign-in linkd started, and the secret whose hash is its nonce.
        case appleIDToken(Secret, secret: PKCEVerifier)
    }

    package func material(
        of route: AuthRoute?,
        routeID: String,
        app: String,
        stores: SignInStores
    ) -> Result<(Material, SignInOrigin), SignInFailure> {
        switch route {
        case .supabasePKCE(let pkce):
            guard let verifier = stores.verifiers?.verifier(for: app, now: WallClock.seconds) else {
                return .failure(
                    SignInFailure(
                        kind: .notStartedByLinkd,
                        message: "linkd did not start this sign-in to \(app) (no stored PKCE verifier, or it was used "
                            + "or expired); sign in with 'linkd login --app \(app) --email ADDR'"
                    )
                )
            }
            let origin: SignInOrigin = verifier.startedInBrowser ? .browser : .emailedByLinkd
            return .success((.pkce(code: pkce.code, verifier: verifier), origin))
        case .appleCallback(let callback):
            return callback.signInProof(app: app, store: stores.apple).map { idToken, secret in
                (.appleIDToken(idToken, secret: secret), .browser)
            }
        case .supabaseOTP(let otp) where otp.type != "recovery":
            return .success((.tokenHash(otp.tokenHash, type: otp.type), .notStartedByLinkd))
        case .supabaseSession(let session):
            let tokens = Material.session(accessToken: session.accessToken, refreshToken: session.refreshToken)
            return .success((tokens, .notStartedByLinkd))
        case .supabaseOTP, .firebaseAction, .supabaseError, .oauthError, .supabaseRecovery, .oauthCallback,
            .appServicesConfirm, .appServicesReset, nil:
            return .failure(.notASignIn(routeID))
        }
    }

    package func session(_ material: Material) async throws(SessionError) -> GoTrueSession {
        switch material {
        case .pkce(let code, let verifier): try await exchange(code: code, verifier: verifier)
        case .tokenHash(let hash, let type): try await verify(tokenHash: hash, type: type)
        case .session(let access, let refresh): try await session(accessToken: access, refreshToken: refresh)
        case .appleIDToken(let token, let secret): try await signInWithApple(idToken: token, secret: secret)
        }
    }

    package func account(of session: GoTrueSession) -> String {
        session.user.email.isEmpty ? "user \(session.user.id)" : session.user.email
    }
}
