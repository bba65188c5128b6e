package import LinkdFormats

/// The calls of Atlas App Services' client API that linkd makes, sent the way realm-core sends them: JSON bodies,
/// `Accept: application/json`; no Authorization for the email/password provider and a login, the session's bearer
/// token for its profile and its sign-out.
package struct AppServicesClient: Sendable {
    /// `<url>/api/client/v2.0`.
    package let clientURL: String
    /// The app's id in App Services.
    package let appID: String
    let transport: any HTTPTransport

    package init(url: String, appID: String, transport: any HTTPTransport) {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        clientURL = base + "/api/client/v2.0"
        self.appID = appID
        self.transport = transport
    }

    /// `<url>/api/client/v2.0/app/<appId>/auth/providers/<provider>`.
    func providerURL(_ provider: String) -> String { clientURL + "/app/" + appID + "/auth/providers/" + provider }

    /// `POST …/reset {"password", "token", "tokenId"}`: sets the new password with a reset link's token.
    package func resetPassword(_ password: Secret, token: Secret, tokenID: String) async throws(SessionError) {
        try await post(
            "/reset",
            .object([
                ("password", .string(password.revealed())), ("token", .string(token.revealed())),
                ("tokenId", .string(tokenID)),
            ]),
            secrets: [password, token, Secret(tokenID)]
        )
    }

    /// `POST …/confirm {"token", "tokenId"}`: confirms an account with a confirmation link's token.
    package func confirm(token: Secret, tokenID: String) async throws(SessionError) {
        try await post(
            "/confirm",
            .object([("token", .string(token.revealed())), ("tokenId", .string(tokenID))]),
            secrets: [token, Secret(tokenID)]
        )
    }

    /// `POST …/reset/call {"email", "password", "arguments"}`: runs the provider's reset function with the new
    /// password (`callResetPasswordFunction` of the SDKs); `arguments` is the configured JSON array.
    package func callResetFunction(email: String, password: Secret, arguments: [JSONValue]) async throws(SessionError) {
        try await post(
            "/reset/call",
            .object([
                ("email", .string(email)), ("password", .string(password.revealed())), ("arguments", .array(arguments)),
            ]),
            secrets: [password]
        )
    }

    /// `POST …/confirm/send {"email"}`: asks App Services to email the account's confirmation link again
    /// (`resendConfirmationEmail` of the SDKs); an account confirmed already is refused (`already confirmed`).
    package func resendConfirmation(email: String) async throws(SessionError) {
        try await post("/confirm/send", .object([("email", .string(email))]))
    }

    /// `POST …/confirm/call {"email"}`: runs the provider's custom confirmation function again
    /// (`retryCustomConfirmation` of the SDKs).
    package func retryConfirmation(email: String) async throws(SessionError) {
        try await post("/confirm/call", .object([("email", .string(email))]))
    }

    /// `POST …/reset/send {"email"}`: asks App Services to email a reset link.
    package func sendResetEmail(to email: String) async throws(SessionError) {
        try await post("/reset/send", .object([("email", .string(email))]))
    }

    private func post(_ path: String, _ body: JSONValue, secrets: [Secret] = []) async throws(SessionError) {
        _ = try await send("POST", providerURL("local-userpass") + path, body: body, secrets: secrets)
    }

    /// Sends one request; `body` as JSON, `bearer` as `Authorization: Bearer`.
    ///
    /// - Returns: the 2xx answer.
    /// - Throws: the backend's error (B.0's `{error, error_code, link}`), or why there was no answer.
    func send(
        _ method: String,
        _ url: String,
        bearer: Secret? = nil,
        body: JSONValue? = nil,
        secrets: [Secret] = []
    ) async throws(SessionError) -> HTTPResponse {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if body != nil { headers.insert(("Content-Type", "application/json;charset=utf-8"), at: 0) }
        if let bearer { headers.append(("Authorization", "Bearer " + bearer.revealed())) }
        let request = HTTPRequest(
            method: method,
            url: url,
            headers: headers,
            body: body.map { Array($0.serialized.utf8) } ?? []
        )
        // What the backend's error text must not show, should it quote the request.
        let sent = secrets + (bearer.map { [$0] } ?? [])
        return try await transport.exchange(request) {
            AppServicesErrorBody.decode(
                status: $0.status,
                contentType: $0.headers["content-type"],
                body: $0.body,
                redacting: sent
            )
        }
    }
}
