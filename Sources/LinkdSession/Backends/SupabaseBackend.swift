package import LinkdFormats
package import LinkdRouting
import LinkdSystem

/// Supabase Auth (GoTrue) as a reset backend: the link becomes a session, the password is set for that session,
/// and the session is signed out.
package struct SupabaseBackend: AuthBackend {
    /// What a Supabase reset link gives.
    package enum Material: Sendable {
        /// `supabase.recovery`: the session in the link's fragment.
        case session(accessToken: Secret, refreshToken: Secret)
        /// `supabase.otp` with `type=recovery`: a token hash for `POST /verify`.
        case tokenHash(Secret, type: String)
        /// `supabase.pkce` of a reset linkd requested: the link's code and the stored verifier, which only a
        /// successful exchange uses up.
        case pkce(code: Secret, verifier: PKCEVerifier)
    }

    /// A reset's live session: its access token, and the account's verified second factors as the session's user
    /// listed them (`nil`: not known yet).
    package struct Session: Sendable {
        package var accessToken: Secret
        package var factors: SecondFactors?
    }

    /// The authentication methods (`amr`) of a session made by an emailed link, as GoTrue issues them
    /// (`internal/api/verify.go`): `otp` for implicit recovery and magic links and for `POST /verify`, the flow's
    /// method (`recovery`, `magiclink`) through PKCE. GoTrue's own `Session.IsRecovery` counts the same three.
    static let emailedLinkMethods: Set<String> = ["otp", "recovery", "magiclink"]

    /// The client that sends the requests.
    package let client: GoTrueClient

    /// A Supabase reset email leads to the `redirect_to` the request names.
    package static let emailLeadsToRequestedLink = true

    /// A Supabase email links to GoTrue's verify endpoint, which redirects to the `redirect_to` it names.
    package static let emailedLinkPath: String? = "/auth/v1/verify"

    /// The backend that talks through `client`.
    package init(client: GoTrueClient) {
        self.client = client
    }

    /// A recovery session in the fragment, a recovery token hash, or a PKCE code of a reset `linkd reset request`
    /// asked for (its verifier is read, not taken: only the exchange that succeeds uses it up, so a `code=` link that
    /// is not the email's, an attacker's say, leaves it for the email's link).
    package func material(
        of route: AuthRoute?,
        routeID: String,
        app: String,
        verifiers: PKCEStore?
    ) -> Result<Material, ResetFailure> {
        switch route {
        case .supabaseRecovery(let session)?:
            return .success(.session(accessToken: session.accessToken, refreshToken: session.refreshToken))
        case .supabaseOTP(let otp)? where otp.type == "recovery":
            return .success(.tokenHash(otp.tokenHash, type: otp.type))
        case .supabasePKCE(let pkce)?:
            guard let verifier = verifiers?.verifier(for: app, now: WallClock.seconds) else {
                return .failure(
                    ResetFailure(
                        kind: .notAReset,
                        message:
                            "linkd did not request this reset for \(app) (no stored PKCE verifier, or it was used or "
                            + "expired); request a new email with 'linkd reset request --app \(app) --email ADDR'"
                    )
                )
            }
            return .success(.pkce(code: pkce.code, verifier: verifier))
        case .supabaseOTP?, .firebaseAction?, .supabaseError?, .oauthError?, .appleCallback?, .supabaseSession?,
            .oauthCallback?, .appServicesConfirm?, .appServicesReset?, nil:
            return .failure(.notAReset(route, routeID: routeID))
        }
    }

    /// The material a reset email's 6-digit code gives, as its link would: `POST /verify` with the address, the code
    /// and `type: recovery` makes the recovery session (amr `otp`) the email's link would have made. The code works
    /// once and is sent once: no retry.
    ///
    /// - Throws: ``BackendError/Kind/codeRejected`` for a code GoTrue does not take (`otp_expired`: wrong, used or
    ///   expired), or why there was no answer.
    package func material(forEmailedCode code: Secret, email: String) async throws(SessionError) -> Material {
        let session = try await Self.verifyingCode { () async throws(SessionError) in
            try await client.verify(email: email, code: code, type: "recovery")
        }
        return .session(accessToken: session.accessToken, refreshToken: session.refreshToken)
    }

    /// The session `verify` gives, GoTrue's `otp_expired` for a typed code read as a refused code (a typo may be
    /// typed again), not as a dead link.
    static func verifyingCode(
        _ verify: () async throws(SessionError) -> GoTrueSession
    ) async throws(SessionError) -> GoTrueSession {
        do throws(SessionError) {
            return try await verify()
        } catch .backend(var error) where error.kind == .linkExpiredOrUsed {
            error.kind = .codeRejected
            throw .backend(error)
        }
    }

    /// Turns the link into a live session: `GET /user` with the link's access token (refreshed first when its `exp`
    /// has passed, or when GoTrue says `bad_jwt`), `POST /verify` for a token hash, `POST /token?grant_type=pkce`
    /// for a code. The session must be one an emailed link made, as its access token's `amr` says: the token the
    /// backend just returned, or the link's own once `GET /user` has accepted it (GoTrue checks its signature).
    ///
    /// - Returns: the session's access token, and the account as `GET /user` (or the session) names it.
    /// - Throws: the backend's refusal (an expired or used link), ``SessionError/notAnEmailedLink(methods:)`` for a
    ///   session signed in another way (a password session mailed as `type=recovery`), or why there was no answer.
    package func establish(
        _ material: Material,
        appName: String,
        retry: RequestRetry
    ) async throws(SessionError) -> (session: Session, account: ResetAccount) {
        let session: GoTrueSession
        switch material {
        case .session(let accessToken, let refreshToken):
            if JWTClaims(accessToken)?.isExpired() != true {
                do throws(SessionError) {
                    let user = try await retry { () async throws(SessionError) in
                        try await client.user(accessToken: accessToken)
                    }
                    try Self.requireEmailedLink(accessToken)
                    let live = Session(accessToken: accessToken, factors: user.factors)
                    return (live, ResetAccount(email: user.email, app: appName))
                } catch .backend(let error) where error.code == "bad_jwt" {
                    // Expired by the backend's clock though not by ours: the refresh token may still serve.
                }
            }
            session = try await retry { () async throws(SessionError) in try await client.refresh(refreshToken) }
        case .tokenHash(let hash, let type):
            session = try await retry { () async throws(SessionError) in
                try await client.verify(tokenHash: hash, type: type)
            }
        case .pkce(let code, let verifier):
            session = try await retry { () async throws(SessionError) in
                try await client.exchange(code: code, verifier: verifier.value)
            }
        }
        try Self.requireEmailedLink(session.accessToken)
        if case .pkce(_, let verifier) = material { verifier.spend() }
        let live = Session(accessToken: session.accessToken, factors: session.user.factors)
        return (live, ResetAccount(email: session.user.email, app: appName))
    }

    /// The account's first verified factor linkd can prove, unless the session's `aal` is already `aal2`; after an
    /// `insufficient_aal`, or when the session did not list them, the factors `GET /user` names.
    package func secondFactor(
        of session: Session,
        afterRefusal: Bool,
        retry: RequestRetry
    ) async throws(SessionError) -> SecondFactor? {
        if !afterRefusal && JWTClaims(session.accessToken)?.assuranceLevel == "aal2" { return nil }
        var factors = session.factors
        if afterRefusal || factors == nil {
            factors = try await retry { () async throws(SessionError) in
                try await client.user(accessToken: session.accessToken)
            }.factors
        }
        return try factors?.chosen()
    }

    /// ``GoTrueClient/prove(_:code:accessToken:)``: the AAL2 session.
    package func proveSecondFactor(
        _ factor: SecondFactor,
        code: Secret,
        in session: Session
    ) async throws(SessionError) -> Session {
        let stronger = try await client.prove(factor, code: code, accessToken: session.accessToken)
        return Session(accessToken: stronger.accessToken, factors: stronger.user.factors)
    }

    /// Throws unless the `amr` of `accessToken` names a method of an emailed link.
    private static func requireEmailedLink(_ accessToken: Secret) throws(SessionError) {
        let methods = JWTClaims(accessToken)?.methods ?? []
        guard !methods.contains(where: emailedLinkMethods.contains) else { return }
        throw .notAnEmailedLink(methods: methods.map { ResponseText.clean($0, limit: 32) })
    }

    /// `PUT /user` with the password, for the session's access token.
    ///
    /// - Throws: a refusal of the password (`weak_password`, `same_password`), or why there was no answer.
    package func setPassword(_ password: Secret, in session: Session) async throws(SessionError) {
        try await client.updatePassword(password, accessToken: session.accessToken)
    }

    /// `POST /logout?scope=local`.
    ///
    /// - Returns: whether GoTrue confirmed it.
    package func signOut(_ session: Session) async -> Bool {
        (try? await client.logout(accessToken: session.accessToken)) != nil
    }

    /// Stores a new PKCE verifier for `app`, then sends `POST /recover?redirect_to=…` with its S256 challenge; the
    /// verifier is forgotten again when the request fails. GoTrue answers the same whether or not the address has an
    /// account.
    ///
    /// - Throws: ``ResetFailureKind/stateUnwritable`` when the verifier cannot be stored (nothing is sent), or the
    ///   backend's refusal (a rate limit), or why there was no answer.
    package func requestReset(
        email: String,
        redirectTo: String,
        verifierStore: PKCEStore,
        app: String
    ) async throws(ResetFailure) {
        try await verifierStore.requestWithNewVerifier(app: app, now: WallClock.seconds, failing: ResetFailure.self) {
            (challenge) async throws(SessionError) in
            try await client.recover(email: email, redirectTo: redirectTo, challenge: challenge)
        }
    }
}

extension SupabaseBackend: CodeResetting {
    /// Supabase Auth as the session layer's client: resets by link or emailed code, and every sign-in `linkd login`
    /// starts.
    static func session(_ client: GoTrueClient) -> SessionBackend {
        let signIn = SupabaseSignIn(client: client)
        let backend = SupabaseBackend(client: client)
        return SessionBackend(reset: backend, signIn: signIn, startedSignIn: signIn, codeReset: backend)
    }

    package func reset(email: String, code: Secret, app: String) async throws(SessionError) -> ReadyReset {
        let material = try await material(forEmailedCode: code, email: email)
        return ReadyReset { passwords, beforeSending in
            await PasswordReset(backend: self, material: material, appName: app, beforeSending: beforeSending)
                .run(passwords: passwords)
        }
    }
}

extension SupabaseSettings: SessionBackendMaking {
    package static var resetType: any AuthBackend.Type { SupabaseBackend.self }

    package func makeBackend(at url: LinkURL, transport: any HTTPTransport) -> SessionBackend {
        SupabaseBackend.session(GoTrueClient(url: url.href, apiKey: apiKey.revealed(), transport: transport))
    }
}
