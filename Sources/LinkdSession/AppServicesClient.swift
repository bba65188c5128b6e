package import LinkdFormats

/// The email/password calls of Atlas App Services the reset needs (backend-contract.md §B), sent the way
/// realm-core sends them: JSON bodies, `Accept: application/json`, no Authorization.
package struct AppServicesClient: Sendable {
    /// `<url>/api/client/v2.0/app/<appId>/auth/providers/local-userpass`.
    package let providerURL: String
    private let transport: any HTTPTransport

    package init(url: String, appID: String, transport: any HTTPTransport) {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        providerURL = base + "/api/client/v2.0/app/" + appID + "/auth/providers/local-userpass"
        self.transport = transport
    }

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

    /// `POST …/reset/send {"email"}`: asks App Services to email a reset link.
    package func sendResetEmail(to email: String) async throws(SessionError) {
        try await post("/reset/send", .object([("email", .string(email))]))
    }

    private func post(_ path: String, _ body: JSONValue, secrets: [Secret] = []) async throws(SessionError) {
        let request = HTTPRequest(
            method: "POST",
            url: providerURL + path,
            headers: [("Content-Type", "application/json;charset=utf-8"), ("Accept", "application/json")],
            body: Array(body.serialized.utf8)
        )
        _ = try await transport.exchange(request) {
            AppServicesErrorBody.decode(
                status: $0.status,
                contentType: $0.headers["content-type"],
                body: $0.body,
                redacting: secrets
            )
        }
    }
}
