package import LinkdFormats
import LinkdRouting

/// The calls of GoTrue (Supabase Auth) the reset needs (backend-contract.md §A), with the headers supabase-swift
/// sends: `apikey` always, `Authorization: Bearer` where the call acts for a session, `X-Supabase-Api-Version:
/// 2024-01-01` so errors come in the current shape.
package struct GoTrueClient: Sendable {
    /// `<backend url>/auth/v1`.
    package let baseURL: String
    private let apiKey: String
    private let transport: any HTTPTransport

    /// - Parameter url: the backend's `url` from apps.d (linkd appends `/auth/v1`).
    package init(url: String, apiKey: String, transport: any HTTPTransport) {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        baseURL = base + "/auth/v1"
        self.apiKey = apiKey
        self.transport = transport
    }

    /// `GET /user`: the user of a session, which proves the session (a link's access token) is live.
    package func user(accessToken: Secret) async throws(SessionError) -> GoTrueUser {
        try GoTrueUser(await call("GET", "/user", bearer: accessToken))
    }

    /// `POST /token?grant_type=refresh_token`: a new session; the refresh token rotates.
    package func refresh(_ refreshToken: Secret) async throws(SessionError) -> GoTrueSession {
        let body = JSONValue.object([("refresh_token", .string(refreshToken.revealed()))])
        return try GoTrueSession(
            await call("POST", "/token?grant_type=refresh_token", body: body, secrets: [refreshToken])
        )
    }

    /// `POST /verify` with only `token_hash` and `type` (anything more is refused by GoTrue).
    package func verify(tokenHash: Secret, type: String) async throws(SessionError) -> GoTrueSession {
        let body = JSONValue.object([("token_hash", .string(tokenHash.revealed())), ("type", .string(type))])
        return try GoTrueSession(await call("POST", "/verify", body: body, secrets: [tokenHash]))
    }

    /// `POST /verify` with an emailed 6-digit code: `{"email", "token", "type"}` (`recovery` for a reset email's code,
    /// `email` for a magic link's; GoTrue's `verify.go`, `verifyPost`), checked against the email's token with or
    /// without PKCE; a wrong or expired code is `403 otp_expired`.
    package func verify(email: String, code: Secret, type: String) async throws(SessionError) -> GoTrueSession {
        let body = JSONValue.object([
            ("email", .string(email)), ("token", .string(code.revealed())), ("type", .string(type)),
        ])
        return try GoTrueSession(await call("POST", "/verify", body: body, secrets: [code]))
    }

    /// Proves `factor` for the session of `accessToken` with `code`: ``challenge(_:accessToken:)`` (retried: it
    /// changes nothing), then ``verify(_:challenge:code:accessToken:)`` (never sent twice: a code proves one
    /// challenge).
    ///
    /// - Returns: the session, now at AAL2.
    /// - Throws: ``BackendError/Kind/codeRejected`` for a wrong or stale code, or why there was no answer.
    package func prove(
        _ factor: SecondFactor,
        code: Secret,
        accessToken: Secret
    ) async throws(SessionError)
        -> GoTrueSession
    {
        let challenge = try await RequestRetry()({ () async throws(SessionError) in
            try await self.challenge(factor, accessToken: accessToken)
        })
        return try await verify(factor, challenge: challenge, code: code, accessToken: accessToken)
    }

    /// `POST /factors/{id}/challenge` for the session (GoTrue's `internal/api/mfa.go`, `ChallengeFactor`): the
    /// challenge's id, which the code is verified against; GoTrue texts the code for a phone factor here.
    package func challenge(_ factor: SecondFactor, accessToken: Secret) async throws(SessionError) -> String {
        let answer = try await call("POST", "/factors/\(factor.id)/challenge", bearer: accessToken, body: .object([]))
        guard let id = answer["id"]?.stringValue, !id.isEmpty else { throw .badResponse("a challenge without an id") }
        return id
    }

    /// `POST /factors/{id}/verify` with `challenge_id` and the code (`mfa.go`, `VerifyFactor`): the session, now at
    /// AAL2 (the user's other sessions of a lower level end). A wrong code is `422 mfa_verification_failed`.
    package func verify(
        _ factor: SecondFactor,
        challenge: String,
        code: Secret,
        accessToken: Secret
    ) async throws(SessionError) -> GoTrueSession {
        let body = JSONValue.object([("challenge_id", .string(challenge)), ("code", .string(code.revealed()))])
        return try GoTrueSession(
            await call("POST", "/factors/\(factor.id)/verify", bearer: accessToken, body: body, secrets: [code])
        )
    }

    /// `POST /token?grant_type=pkce`: the session for a PKCE link's `code`, proved by the stored verifier.
    package func exchange(code: Secret, verifier: Secret) async throws(SessionError) -> GoTrueSession {
        let body = JSONValue.object([
            ("auth_code", .string(code.revealed())), ("code_verifier", .string(verifier.revealed())),
        ])
        return try GoTrueSession(
            await call("POST", "/token?grant_type=pkce", body: body, secrets: [code, verifier])
        )
    }

    /// `POST /token?grant_type=id_token` with `provider: apple`: the session for an Apple id token, whose `nonce` claim
    /// GoTrue checks against the SHA-256 of the raw `nonce` sent here.
    package func appleIDTokenGrant(idToken: Secret, nonce: Secret) async throws(SessionError) -> GoTrueSession {
        let body = JSONValue.object([
            ("provider", .string("apple")), ("id_token", .string(idToken.revealed())),
            ("nonce", .string(nonce.revealed())),
        ])
        return try GoTrueSession(
            await call("POST", "/token?grant_type=id_token", body: body, secrets: [idToken, nonce])
        )
    }

    /// `POST /recover?redirect_to=…` with an S256 challenge: asks GoTrue to email a reset link (200 `{}` whether or
    /// not the address has an account).
    package func recover(email: String, redirectTo: String, challenge: String) async throws(SessionError) {
        let body = JSONValue.object([
            ("email", .string(email)), ("code_challenge", .string(challenge)),
            ("code_challenge_method", .string("s256")),
        ])
        _ = try await call("POST", "/recover?redirect_to=" + PercentEncoding.encodeComponent(redirectTo), body: body)
    }

    /// `POST /otp?redirect_to=…` with `create_user: false` and an S256 challenge: asks GoTrue to email a magic link
    /// to an existing account (contract A.11: 200 `{}`; an address with no account is `otp_disabled`).
    package func magicLink(email: String, redirectTo: String, challenge: String) async throws(SessionError) {
        let body = JSONValue.object([
            ("email", .string(email)), ("create_user", .bool(false)), ("code_challenge", .string(challenge)),
            ("code_challenge_method", .string("s256")),
        ])
        _ = try await call("POST", "/otp?redirect_to=" + PercentEncoding.encodeComponent(redirectTo), body: body)
    }

    /// The `GET /authorize` address a browser opens to sign in with `provider` through PKCE: GoTrue sends the person
    /// on to the provider and, once they have signed in there, back to `redirectTo` with `?code=…`. Nothing is sent
    /// from here: the browser makes the request (without the `apikey`, which GoTrue does not ask for there).
    package func authorizeURL(provider: String, redirectTo: String, challenge: String) -> String {
        baseURL + "/authorize?provider=" + PercentEncoding.encodeComponent(provider) + "&redirect_to="
            + PercentEncoding.encodeComponent(redirectTo) + "&code_challenge=" + challenge
            + "&code_challenge_method=s256"
    }

    /// `PUT /user {"password": …}`: sets the new password.
    package func updatePassword(_ password: Secret, accessToken: Secret) async throws(SessionError) {
        let body = JSONValue.object([("password", .string(password.revealed()))])
        _ = try await call("PUT", "/user", bearer: accessToken, body: body, secrets: [password])
    }

    /// `POST /logout?scope=…` (204, empty body).
    package func logout(accessToken: Secret, scope: String = "local") async throws(SessionError) {
        _ = try await call("POST", "/logout?scope=\(scope)", bearer: accessToken, expectsBody: false)
    }

    private func call(
        _ method: String,
        _ target: String,
        bearer: Secret? = nil,
        body: JSONValue? = nil,
        secrets: [Secret] = [],
        expectsBody: Bool = true
    ) async throws(SessionError) -> JSONValue {
        // What the backend's error text must not show, should it quote the request.
        let sent = secrets + (bearer.map { [$0] } ?? [])
        var headers: [(name: String, value: String)] = [("apikey", apiKey), ("X-Supabase-Api-Version", "2024-01-01")]
        if let bearer { headers.append(("Authorization", "Bearer " + bearer.revealed())) }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let request = HTTPRequest(
            method: method,
            url: baseURL + target,
            headers: headers,
            body: body.map { Array($0.serialized.utf8) } ?? []
        )
        let response = try await transport.exchange(request) {
            GoTrueErrorBody.decode(
                status: $0.status,
                errorCodeHeader: $0.headers["x-sb-error-code"],
                body: $0.body,
                redacting: sent
            )
        }
        guard expectsBody else { return .null }
        guard let value = try? JSONValue.parse(response.body), value.objectMembers != nil else {
            throw .badResponse("HTTP \(response.status) without a JSON object")
        }
        return value
    }
}
