import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdWire

extension SignInAction {
    /// The error codes that say the person stopped the sign-in: Apple's Cancel (`user_cancelled_authorize`; its web
    /// popup's `popup_closed_by_user`), and OAuth's `access_denied` when the backend gives no code of its own.
    static let cancelCodes: Set<String> = ["user_cancelled_authorize", "popup_closed_by_user", "access_denied"]

    /// The answer to an error redirect at a sign-in link, or `nil` for any other route: an emailed link the backend
    /// says has expired gets ``LinkExpiry``'s answer; otherwise the provider (Apple, or an OAuth provider through the
    /// backend) or the backend says the sign-in did not happen — cancelled by the person, or failed with its error.
    ///
    /// A `linkd login` waiting for a sign-in of the app hears it at once, and that sign-in's stored secret is removed:
    /// an Apple error only when its `state` is the one linkd issued (no one else can end a sign-in linkd started); a
    /// Supabase provider's, whose state is the backend's own, when the secret stored is one of a sign-in started in
    /// the browser.
    func providerError(_ link: ClaimedLink) async -> WireProtocol.Failure? {
        let code: String
        let description: String?
        let spent: PKCEVerifier?
        let now = Int64(Date().timeIntervalSince1970)
        switch link.route.auth {
        case .supabaseError(let error):
            if error.isExpiredLink { return LinkExpiry.failure(link.route) }
            // The backend's own code when it gives one (`signup_disabled` with `access_denied`): no cancel, then.
            code = error.errorCode ?? error.error ?? "access_denied"
            description = error.errorDescription
            spent = pkceStore?.verifier(for: link.appName, now: now).flatMap { $0.startedInBrowser ? $0 : nil }
        case .oauthError(let error):
            code = error.error
            description = error.errorDescription
            let secret = appleStore?.verifier(for: link.appName, now: now)
            spent = secret.flatMap { error.state == AppleSignInRequest.state(for: $0.value.revealed()) ? $0 : nil }
        case .firebaseAction, .appleCallback, .supabaseRecovery, .supabaseSession, .oauthCallback, .supabasePKCE,
            .supabaseOTP, .appServicesConfirm, .appServicesReset, nil:
            return nil
        }
        let failure = Self.providerFailure(app: link.appName, code: code, description: description)
        if let spent {
            spent.spend()
            await waiters.finish(link.appName, with: .failed(failure))
        }
        return failure
    }

    /// The failure for a provider's error `code` (with its `description`) at a sign-in to `app`: cancelled, or the
    /// provider's own words — a code shown only when it is a plain word, a description cut at 200 characters.
    static func providerFailure(app: String, code: String, description: String?) -> WireProtocol.Failure {
        if cancelCodes.contains(code) {
            return WireProtocol.Failure(
                kind: .refused,
                reason: .signInCancelled,
                message: "the sign-in to \(app) was cancelled; nothing was signed in"
            )
        }
        let isWord = !code.isEmpty && code.count <= 40 && code.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        let said = description.map { String($0.prefix(200)) }.flatMap { $0.isEmpty ? nil : ": " + $0 } ?? ""
        return WireProtocol.Failure(
            kind: .refused,
            reason: .providerError,
            message: "the sign-in to \(app) failed" + (isWord ? " (\(code))" : "") + said
        )
    }
}
