package import LinkdFormats
import LinkdSystem

/// Signing in with Supabase Auth (GoTrue) through an emailed link that linkd asked for: a magic link requested with
/// a PKCE challenge (`POST /otp`), and the `code` its link brings back exchanged, with the stored verifier, for the
/// session (`POST /token?grant_type=pkce`).
package struct SupabaseSignIn: Sendable {
    /// The client that sends the requests.
    package let client: GoTrueClient

    /// A sign-in that talks through `client`.
    package init(client: GoTrueClient) {
        self.client = client
    }

    /// Exchanges a PKCE link's `code` for its session, proved by `verifier`, which only a successful exchange uses up:
    /// a `code=` link that is not the email's (an attacker's, say) leaves it for the email's link.
    ///
    /// - Throws: the backend's refusal (`flow_state_not_found` for a used or foreign code, `flow_state_expired`,
    ///   `bad_code_verifier`), or why there was no answer.
    package func exchange(code: Secret, verifier: PKCEVerifier) async throws(SessionError) -> GoTrueSession {
        let session = try await RequestRetry()({ () async throws(SessionError) in
            try await client.exchange(code: code, verifier: verifier.value)
        })
        verifier.spend()
        return session
    }

    /// `POST /token?grant_type=id_token`: the session for an Apple id token, its nonce proved by the secret
    /// `linkd login` stored, which only a sign-in that succeeds uses up.
    ///
    /// - Throws: the backend's refusal (`Bad ID token`, `invalid nonce`, an audience it does not accept), or why there
    ///   was no answer.
    package func signInWithApple(idToken: Secret, secret: PKCEVerifier) async throws(SessionError) -> GoTrueSession {
        let session = try await RequestRetry()({ () async throws(SessionError) in
            try await client.appleIDTokenGrant(idToken: idToken, nonce: secret.value)
        })
        secret.spend()
        return session
    }

    /// `POST /verify` with an emailed link's token hash (magiclink, signup, invite, email_change, email): the session
    /// it signs in. A token hash works once.
    ///
    /// - Throws: the backend's refusal (`otp_expired` for a used or expired link), or why there was no answer.
    package func verify(tokenHash: Secret, type: String) async throws(SessionError) -> GoTrueSession {
        try await RequestRetry()({ () async throws(SessionError) in
            try await client.verify(tokenHash: tokenHash, type: type)
        })
    }

    /// `POST /verify` with a magic-link email's 6-digit code (`type: email`): the session its link would sign in. The
    /// code works once and is sent once.
    ///
    /// - Throws: ``BackendError/Kind/codeRejected`` for a code GoTrue does not take (`otp_expired`: wrong, used or
    ///   expired), or why there was no answer.
    package func verify(email: String, code: Secret) async throws(SessionError) -> GoTrueSession {
        try await SupabaseBackend.verifyingCode { () async throws(SessionError) in
            try await client.verify(email: email, code: code, type: "email")
        }
    }

    /// The session of an implicit-flow link's tokens, proved live by `GET /user` (GoTrue checks the token's
    /// signature); when the access token has expired by its `exp`, or GoTrue says `bad_jwt`, the refresh token's new
    /// session instead.
    ///
    /// - Throws: the backend's refusal (`refresh_token_already_used`, `session_not_found`), or why there was no
    ///   answer.
    package func session(accessToken: Secret, refreshToken: Secret) async throws(SessionError) -> GoTrueSession {
        let retry = RequestRetry()
        if let claims = JWTClaims(accessToken), !claims.isExpired() {
            do throws(SessionError) {
                let user = try await retry { () async throws(SessionError) in
                    try await client.user(accessToken: accessToken)
                }
                return GoTrueSession(
                    accessToken: accessToken,
                    refreshToken: refreshToken,
                    expiresAt: claims.expiresAt ?? 0,
                    tokenType: "bearer",
                    user: user
                )
            } catch .backend(let error) where error.code == "bad_jwt" {
                // Expired by the backend's clock though not by ours: the refresh token may still serve.
            }
        }
        return try await retry { () async throws(SessionError) in try await client.refresh(refreshToken) }
    }

    /// `session`, stepped up to AAL2 when its user has a verified second factor linkd can prove (MFA) and its token is
    /// not AAL2 yet: the factor's code is asked from `codes` (again after a wrong one) and proved with
    /// `POST /factors/{id}/challenge` and `POST /factors/{id}/verify`. A session whose only factors linkd cannot prove
    /// (a security key) goes as it is, for the app to step up itself.
    ///
    /// - Returns: the session to deliver, or why there is none: no code came (`codes` is `nil` when no one can be
    ///   asked), the last code was refused, or the backend failed.
    package func steppedUp(
        _ session: GoTrueSession,
        app: String,
        codes: (any PasswordSource)?
    ) async -> Result<GoTrueSession, SignInFailure> {
        guard JWTClaims(session.accessToken)?.assuranceLevel != "aal2",
            let factor = session.user.factors.usable.first
        else { return .success(session) }
        guard let codes else {
            return .failure(SignInFailure(kind: .refused, message: Self.noCode(app: app)))
        }
        let prompt = factor.prompt(email: session.user.email, app: app)
        let outcome = await CodeRounds.run(prompt: prompt, codes: codes) { (code) async throws(SessionError) in
            try await client.prove(factor, code: code, accessToken: session.accessToken)
        }
        switch outcome {
        case .proved(let stronger): return .success(stronger)
        case .noCode: return .failure(SignInFailure(kind: .refused, message: Self.noCode(app: app)))
        case .failed(let error): return .failure(SignInFailure(error))
        }
    }

    private static func noCode(app: String) -> String {
        "the account has a second factor and no code was given; nothing was delivered to \(app)"
    }

    /// Ends `session` (`POST /logout?scope=local`): a sign-in the person did not confirm leaves no live session.
    ///
    /// - Returns: whether GoTrue confirmed it.
    package func signOut(_ session: GoTrueSession) async -> Bool {
        (try? await client.logout(accessToken: session.accessToken)) != nil
    }

    /// Stores a new PKCE verifier for `app`, then asks for a magic link to `email` (`POST /otp`, `create_user: false`,
    /// with the verifier's S256 challenge) that leads to `redirectTo`; the verifier is forgotten again when the
    /// request fails.
    ///
    /// - Throws: ``SignInFailureKind/stateUnwritable`` when the verifier cannot be stored (nothing is sent), or the
    ///   backend's refusal (`otp_disabled` for an address with no account, a rate limit), or why there was no answer.
    package func requestMagicLink(
        email: String,
        redirectTo: String,
        verifierStore: PKCEStore,
        app: String
    ) async throws(SignInFailure) {
        try await verifierStore.requestWithNewVerifier(app: app, now: WallClock.seconds, failing: SignInFailure.self) {
            (challenge) async throws(SessionError) in
            try await client.magicLink(email: email, redirectTo: redirectTo, challenge: challenge)
        }
    }

    /// Stores a new PKCE verifier for `app` and gives the `GET /authorize` address that signs in with `provider` in
    /// a browser and comes back to `redirectTo` with the `code` the verifier proves. Nothing is sent from here.
    ///
    /// - Returns: the address, and the verifier stored (which the exchange of the code that comes back spends).
    /// - Throws: ``SignInFailureKind/stateUnwritable`` when the verifier cannot be stored.
    package func startProviderSignIn(
        provider: String,
        redirectTo: String,
        verifierStore: PKCEStore,
        app: String
    ) async throws(SignInFailure) -> (address: String, verifier: Secret?) {
        let now = WallClock.seconds
        var address = ""
        try await verifierStore.requestWithNewVerifier(app: app, now: now, inBrowser: true, failing: SignInFailure.self)
        {
            (challenge) async throws(SessionError) in
            address = client.authorizeURL(provider: provider, redirectTo: redirectTo, challenge: challenge)
        }
        return (address, verifierStore.verifier(for: app, now: now)?.value)
    }
}

extension SupabaseSignIn: SignInStarter {
    /// The app's sign-in link with the session's tokens in its fragment: the shape of a link GoTrue's implicit flow
    /// sends, which the daemon signs in with as it would with the email's link.
    package func signInLink(email: String, code: Secret, at link: String) async throws(SessionError) -> String {
        let session = try await verify(email: email, code: code)
        return link + "#access_token=" + session.accessToken.revealed() + "&expires_at=" + String(session.expiresAt)
            + "&refresh_token=" + session.refreshToken.revealed() + "&token_type=bearer&type=magiclink"
    }
}
