import FoundationEssentials
import LinkdConfig
import LinkdDesktop
import LinkdFormats
import LinkdSession

extension SignInAction {
    /// What a sign-in link gives, and how it becomes a session.
    enum Material: Sendable {
        /// A code of a sign-in linkd started, and the verifier that proves it.
        case pkce(code: Secret, verifier: PKCEVerifier)
        /// An emailed link's token hash, for `POST /verify`.
        case tokenHash(Secret, type: String)
        /// An implicit-flow link's tokens.
        case session(accessToken: Secret, refreshToken: Secret)
        /// An Apple id token of a sign-in linkd started, and the secret whose hash is its nonce.
        case appleIDToken(Secret, secret: PKCEVerifier)

        func session(_ signIn: SupabaseSignIn) async throws(SessionError) -> GoTrueSession {
            switch self {
            case .pkce(let code, let verifier): try await signIn.exchange(code: code, verifier: verifier)
            case .tokenHash(let hash, let type): try await signIn.verify(tokenHash: hash, type: type)
            case .session(let access, let refresh): try await signIn.session(accessToken: access, refreshToken: refresh)
            case .appleIDToken(let token, let secret): try await signIn.signInWithApple(idToken: token, secret: secret)
            }
        }
    }

    /// Where the person confirms a sign-in linkd did not start.
    enum Confirmation: Sendable {
        /// No question: linkd started the sign-in.
        case none
        /// On the terminal of `linkd open`.
        case terminal
        /// In a desktop notification with buttons (`linkd open` has no terminal, as when the mail client ran it).
        case notification
    }

    /// The routes that sign in: a code that a stored verifier proves, an emailed token hash of a sign-in type, an
    /// implicit-flow session — the last two only when the person can be asked to confirm: on the terminal of
    /// `linkd open`, else in a notification whose server shows buttons.
    static func material(
        _ link: ClaimedLink,
        store: PKCEStore?,
        appleStore: PKCEStore?,
        client: (any LinkClient)?
    ) async -> Result<(Material, Confirmation), WireProtocol.Failure> {
        let material: Material
        switch link.route.auth {
        case .supabasePKCE(let pkce):
            guard let verifier = store?.verifier(for: link.appName, now: Int64(Date().timeIntervalSince1970)) else {
                return .failure(
                    WireProtocol.Failure(
                        kind: .invalid,
                        reason: "not_started_by_linkd",
                        message: "linkd did not start this sign-in to \(link.appName) (no stored PKCE verifier, or it "
                            + "was used or expired); sign in with 'linkd login --app \(link.appName) --email ADDR'"
                    )
                )
            }
            return .success((.pkce(code: pkce.code, verifier: verifier), .none))
        case .appleCallback(let callback):
            return appleMaterial(callback, app: link.appName, store: appleStore).map { ($0, .none) }
        case .supabaseOTP(let otp) where otp.type != "recovery":
            material = .tokenHash(otp.tokenHash, type: otp.type)
        case .supabaseSession(let session):
            material = .session(accessToken: session.accessToken, refreshToken: session.refreshToken)
        default:
            return .failure(
                WireProtocol.Failure(
                    kind: .invalid,
                    reason: "not_a_signin",
                    message: "a '\(link.route.id)' link does not sign in; linkd refuses it at a sign-in link"
                )
            )
        }
        if let client, await client.canConfirm { return .success((material, .terminal)) }
        if await DesktopNotification.canAsk() { return .success((material, .notification)) }
        return .failure(
            WireProtocol.Failure(
                kind: .invalid,
                reason: "cannot_confirm",
                message: "linkd did not start this sign-in to \(link.appName), and signs in only after you confirm "
                    + "it: open the link with 'linkd open' in a terminal"
            )
        )
    }
}
