import FoundationEssentials
import LinkdFormats
import LinkdSession
import LinkdWire

extension SignInAction {
    /// An `apple.callback` becomes an id-token sign-in only when linkd started it: its `state` is the one issued for
    /// the secret stored for the app (unused, at most ten minutes old), and its id token's `nonce` claim is that
    /// secret's hash. Anything else is refused before a request is sent: a callback of someone else's sign-in (login
    /// CSRF) never reaches the backend.
    static func appleMaterial(
        _ callback: AppleCallback,
        app: String,
        store: PKCEStore?
    ) -> Result<SignInMaterial, WireProtocol.Failure> {
        let secret = store?.verifier(for: app, now: Int64(Date().timeIntervalSince1970))
        guard let secret, callback.state == AppleSignInRequest.state(for: secret.value.revealed()) else {
            return .failure(
                WireProtocol.Failure(
                    kind: .invalid,
                    reason: .notStartedByLinkd,
                    message: "linkd did not start this Sign in with Apple to \(app) (its state is not the one linkd "
                        + "issued, or that sign-in was used or expired); sign in with 'linkd login --app \(app) "
                        + "--provider apple'"
                )
            )
        }
        guard let idToken = callback.idToken else {
            return .failure(
                WireProtocol.Failure(
                    kind: .invalid,
                    reason: .noIDToken,
                    message: "this Apple callback carries no id_token: the page at \(app)'s Return URL must pass "
                        + "Apple's id_token on in the link"
                )
            )
        }
        guard callback.claims?.nonce == AppleSignInRequest.nonce(for: secret.value.revealed()) else {
            return .failure(
                WireProtocol.Failure(
                    kind: .invalid,
                    reason: .nonceMismatch,
                    message: "the id token's nonce is not the one linkd sent to Apple for this sign-in to \(app); "
                        + "nothing was sent"
                )
            )
        }
        return .success(.appleIDToken(idToken, secret: secret))
    }
}
