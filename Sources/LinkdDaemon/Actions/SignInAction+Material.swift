import FoundationEssentials
import LinkdConfig
import LinkdDesktop
import LinkdFormats
import LinkdSession
import LinkdWire

extension SignInAction {
    /// Where the person confirms a sign-in linkd did not start.
    enum Confirmation: Sendable {
        /// No question: linkd started the sign-in with an emailed link.
        case none
        /// By the `linkd login` that started the sign-in in the browser and waits for it, on its terminal.
        case login
        /// On the terminal of `linkd open`.
        case terminal
        /// In a desktop notification with buttons (`linkd open` has no terminal, as when the mail client ran it).
        case notification
    }

    /// The routes that sign in: a code that a stored verifier proves, an emailed token hash of a sign-in type, an
    /// implicit-flow session — the last two only when the person can be asked to confirm: on the terminal of
    /// `linkd open`, else in a notification whose server shows buttons. A code or Apple id token of a sign-in started
    /// in the browser is confirmed by the `linkd login` that waits for it, else as one linkd did not start.
    static func material(
        _ link: ClaimedLink,
        store: PKCEStore?,
        appleStore: PKCEStore?,
        client: (any LinkClient)?,
        waiters: SignInWaiters
    ) async -> Result<(SignInMaterial, Confirmation), WireProtocol.Failure> {
        let material: SignInMaterial
        switch link.route.auth {
        case .supabasePKCE(let pkce):
            guard let verifier = store?.verifier(for: link.appName, now: Int64(Date().timeIntervalSince1970)) else {
                return .failure(
                    WireProtocol.Failure(
                        kind: .invalid,
                        reason: .notStartedByLinkd,
                        message: "linkd did not start this sign-in to \(link.appName) (no stored PKCE verifier, or it "
                            + "was used or expired); sign in with 'linkd login --app \(link.appName) --email ADDR'"
                    )
                )
            }
            material = .pkce(code: pkce.code, verifier: verifier)
            guard verifier.startedInBrowser else { return .success((material, .none)) }
            if await waiters.hasConfirmer(for: link.appName) { return .success((material, .login)) }
        case .appleCallback(let callback):
            switch appleMaterial(callback, app: link.appName, store: appleStore) {
            case .success(let value): material = value
            case .failure(let failure): return .failure(failure)
            }
            if await waiters.hasConfirmer(for: link.appName) { return .success((material, .login)) }
        case .supabaseOTP(let otp) where otp.type != "recovery":
            material = .tokenHash(otp.tokenHash, type: otp.type)
        case .supabaseSession(let session):
            material = .session(accessToken: session.accessToken, refreshToken: session.refreshToken)
        case .supabaseOTP, .firebaseAction, .supabaseError, .oauthError, .supabaseRecovery, .oauthCallback,
            .appServicesConfirm, .appServicesReset, nil:
            return .failure(
                WireProtocol.Failure(
                    kind: .invalid,
                    reason: .notASignIn,
                    message: "a '\(link.route.id)' link does not sign in; linkd refuses it at a sign-in link"
                )
            )
        }
        if let client, await client.canConfirm { return .success((material, .terminal)) }
        if await DesktopNotification.canAsk() { return .success((material, .notification)) }
        let failure = WireProtocol.Failure(
            kind: .invalid,
            reason: .cannotConfirm,
            message: material.isStartedInBrowser
                ? "this sign-in to \(link.appName) came back from the browser and is kept only once you confirm "
                    + "it: run 'linkd login' in a terminal, or open the link with 'linkd open' in one"
                : "linkd did not start this sign-in to \(link.appName), and signs in only after you confirm it: "
                    + "open the link with 'linkd open' in a terminal"
        )
        // A `linkd login` that waits for this sign-in, but cannot ask, hears at once that it ended.
        if material.isStartedInBrowser { await waiters.finish(link.appName, with: .failed(failure)) }
        return .failure(failure)
    }
}
