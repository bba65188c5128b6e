package import LinkdFormats
import LinkdSystem

extension AppleCallback {
    /// The id token of a Sign in with Apple linkd started, and the secret that proves it: its `state` is the one issued
    /// for the secret stored for `app` (unused, at most ten minutes old), and its id token's `nonce` claim is that
    /// secret's hash. Anything else fails before a request is sent: a callback of someone else's sign-in (login CSRF)
    /// never reaches the backend.
    package func signInProof(app: String, store: PKCEStore?) -> Result<(Secret, PKCEVerifier), SignInFailure> {
        let secret = store?.verifier(for: app, now: WallClock.seconds)
        guard let secret, state == AppleSignInRequest.state(for: secret.value.revealed()) else {
            return .failure(
                SignInFailure(
                    kind: .notStartedByLinkd,
                    message: "linkd did not start this Sign in with Apple to \(app) (its state is not the one linkd "
                        + "issued, or that sign-in was used or expired); sign in with 'linkd login --app \(app) "
                        + "--provider apple'"
                )
            )
        }
        guard let idToken else {
            return .failure(
                SignInFailure(
                    kind: .noIDToken,
                    message: "this Apple callback carries no id_token: the page at \(app)'s Return URL must pass "
                        + "Apple's id_token on in the link"
                )
            )
        }
        guard claims?.nonce == AppleSignInRequest.nonce(for: secret.value.revealed()) else {
            return .failure(
                SignInFailure(
                    kind: .nonceMismatch,
                    message: "the id token's nonce is not the one linkd sent to Apple for this sign-in to \(app); "
                        + "nothing was sent"
                )
            )
        }
        return .success((idToken, secret))
    }
}

extension SignInFailure {
    /// A link that signs no one in with the app's backend.
    static func notASignIn(_ routeID: String) -> Self {
        SignInFailure(
            kind: .notASignIn,
            message: "a '\(routeID)' link does not sign in; linkd refuses it at a sign-in link"
        )
    }
}
