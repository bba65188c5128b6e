package import LinkdFormats
package import LinkdRouting

/// Atlas App Services' email/password provider as a reset backend: the link's token pair sets the password
/// directly, with no session to establish or end.
package struct AppServicesBackend: AuthBackend {
    /// What an `appservices.reset` link gives: its `token` and `tokenId`.
    package struct Material: Sendable {
        /// The link's `token`.
        package var token: Secret
        /// The link's `tokenId`.
        package var tokenID: Secret

        /// The token pair of a reset link.
        package init(token: Secret, tokenID: Secret) {
            self.token = token
            self.tokenID = tokenID
        }
    }

    /// The client that sends the requests.
    package let client: AppServicesClient

    /// An App Services reset email leads to the link the app's own settings name.
    package static let emailLeadsToRequestedLink = false

    /// An App Services email links to the app's own link.
    package static let emailedLinkPath: String? = nil

    /// The backend that talks through `client`.
    package init(client: AppServicesClient) {
        self.client = client
    }

    /// The `token` and `tokenId` of an `appservices.reset` link.
    package func material(
        of route: AuthRoute?,
        routeID: String,
        app: String,
        verifiers: PKCEStore?
    ) -> Result<Material, ResetFailure> {
        switch route {
        case .appServicesReset(let pair)?:
            return .success(Material(token: pair.token, tokenID: pair.tokenID))
        case .appServicesConfirm?, .firebaseAction?, .supabaseError?, .oauthError?, .appleCallback?,
            .supabaseRecovery?, .supabaseSession?, .oauthCallback?, .supabasePKCE?, .supabaseOTP?, nil:
            return .failure(.notAReset(route, routeID: routeID))
        }
    }

    /// `POST …/confirm` with an email confirmation link's token pair: confirms the account (a token pair works once).
    /// Retried on connection errors and 502/503/504 like the requests of a reset before its password.
    ///
    /// - Throws: `UserpassTokenInvalid` for a used or expired link, or why there was no answer.
    package func confirmEmail(token: Secret, tokenID: Secret) async throws(SessionError) {
        try await RequestRetry()({ () async throws(SessionError) in
            try await client.confirm(token: token, tokenID: tokenID.revealed())
        })
    }

    /// `POST …/reset` with the password and the link's token pair.
    ///
    /// - Throws: `UserpassTokenInvalid` for a used or expired link, a refusal of the password, or why there was no
    ///   answer.
    package func setPassword(_ password: Secret, in session: Material) async throws(SessionError) {
        try await client.resetPassword(password, token: session.token, tokenID: session.tokenID.revealed())
    }

    /// Runs the provider's reset function (`POST …/reset/call`) for `email` with the new password and `arguments` (a
    /// JSON array's text, as the configuration holds it). The function decides: it may set the password at once, or
    /// have the person confirm by email first; App Services answers both alike.
    ///
    /// - Throws: the backend's refusal (`UserNotFound`, the function's failure), or why there was no answer.
    package func callResetFunction(email: String, password: Secret, arguments: String) async throws(ResetFailure) {
        var values: [JSONValue] = []
        if case .array(let parsed)? = try? JSONValue.parse(Array(arguments.utf8)) { values = parsed }
        do throws(SessionError) {
            try await client.callResetFunction(email: email, password: password, arguments: values)
        } catch {
            throw ResetFailure(error)
        }
    }

    /// `POST …/reset/send`; the email leads to the app's configured reset URL, so `redirectTo` and the store go
    /// unused.
    ///
    /// - Throws: the backend's refusal (`UserNotFound`), or why there was no answer.
    package func requestReset(
        email: String,
        redirectTo: String,
        verifierStore: PKCEStore,
        app: String
    ) async throws(ResetFailure) {
        do throws(SessionError) {
            try await client.sendResetEmail(to: email)
        } catch {
            throw ResetFailure(error)
        }
    }

    // The steps App Services needs no request for.

    /// Sends nothing: App Services checks the token when the password comes with it.
    ///
    /// - Returns: the token pair, and the app's account without an address, since App Services names none.
    package func establish(
        _ material: Material,
        appName: String,
        retry: RequestRetry
    ) async throws(SessionError) -> (session: Material, account: ResetAccount) {
        (material, ResetAccount(email: nil, app: appName))
    }

    /// Sends nothing: App Services' email/password provider has no second factor.
    ///
    /// - Returns: `nil`.
    package func secondFactor(
        of session: Material,
        afterRefusal: Bool,
        retry: RequestRetry
    ) async throws(SessionError) -> SecondFactor? { nil }

    /// Sends nothing, since ``secondFactor(of:afterRefusal:retry:)`` names no factor to prove.
    ///
    /// - Throws: always: there is no factor to prove.
    package func proveSecondFactor(
        _ factor: SecondFactor,
        code: Secret,
        in session: Material
    ) async throws(SessionError) -> Material {
        throw .badResponse("App Services asks for no second factor")
    }

    /// Sends nothing: a reset leaves no session behind.
    ///
    /// - Returns: `false`.
    package func signOut(_ session: Material) async -> Bool { false }
}

extension AppServicesBackend: ResetFunctionCalling {
    /// Atlas App Services as the session layer's client: resets by link or reset function, sign-in with Apple, and
    /// its account confirmations.
    static func session(_ client: AppServicesClient) -> SessionBackend {
        let backend = AppServicesBackend(client: client)
        return SessionBackend(
            reset: backend,
            signIn: AppServicesSignIn(client: client),
            resetFunction: backend,
            confirmations: client
        ) { route in
            switch route {
            case .appServicesConfirm(let link)?:
                return { () async throws(SessionError) in
                    try await backend.confirmEmail(token: link.token, tokenID: link.tokenID)
                }
            case .appServicesReset?, .firebaseAction?, .supabaseError?, .oauthError?, .appleCallback?,
                .supabaseRecovery?, .supabaseSession?, .oauthCallback?, .supabasePKCE?, .supabaseOTP?, nil:
                return nil
            }
        }
    }
}

extension AppServicesClient: ConfirmationResending {}

extension AppServicesSettings: SessionBackendMaking {
    package static var resetType: any AuthBackend.Type { AppServicesBackend.self }

    package func makeBackend(at url: LinkURL, transport: any HTTPTransport) -> SessionBackend {
        AppServicesBackend.session(AppServicesClient(url: url.href, appID: appID, transport: transport))
    }
}
