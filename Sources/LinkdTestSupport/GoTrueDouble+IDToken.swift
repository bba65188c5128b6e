import Foundation
import LinkdSystem

extension GoTrueDouble {
    /// Turns on Sign in with Apple for `clientIDs` (`GOTRUE_EXTERNAL_APPLE_CLIENT_ID`), trusting the id tokens
    /// `apple` signs (GoTrue finds Apple's keys through the issuer's discovery document; the double is handed them).
    package func enableApple(clientIDs: [String], keysOf apple: AppleDouble) {
        service.state.withLock { state in
            state.appleClientIDs = clientIDs
            state.appleKeys = apple.keys
        }
    }

    /// The user that the Apple identity `sub` signed in as, if any.
    package func appleUserEmail(sub: String) -> String? {
        service.state.withLock { state in state.appleIdentities[sub].flatMap { state.users[$0]?.email } }
    }
}

extension GoTrueService {
    /// `POST /token?grant_type=id_token` with `provider: apple` (A.13), followed from GoTrue's `token_oidc.go`
    /// (`IdTokenGrant`) and `provider/oidc.go` (`parseAppleIDToken`): the token's signature and `exp` against Apple's
    /// key, its `sub`, an `aud` among the Apple client IDs, and its `nonce` claim equal to the lowercase hex SHA-256 of
    /// the raw `nonce` sent (or neither present). The user is the one with that Apple identity, else the one with the
    /// token's verified email, else a new one; the session's `amr` is `oauth` and a new user's provider `apple`.
    /// As GoTrue's own, the request errors are OAuth-shaped (`{"error": "invalid request", "error_description"}`,
    /// the space verbatim). Simpler than GoTrue: `provider_disabled` is checked before the issuer, a foreign issuer
    /// is `Bad ID token`, the audience error drops its `: [aud…]` suffix, and `access_token`, `issuer` and
    /// `link_identity` are not read.
    func idTokenGrant(_ request: ReceivedRequest, _ state: inout GoTrueState) throws -> DoubleResponse {
        let body = request.jsonBody ?? [:]
        let token = body["id_token"] as? String ?? ""
        guard !token.isEmpty else { return Self.oauthError("invalid request", "id_token required") }
        guard let provider = body["provider"] as? String, !provider.isEmpty else {
            return Self.oauthError("invalid request", "provider or client_id and issuer required")
        }
        guard provider == "apple", let keys = state.appleKeys, !state.appleClientIDs.isEmpty else {
            let message = "Provider (issuer \"\(AppleDouble.issuer)\") is not enabled"
            throw Failure(status: 400, code: "provider_disabled", message: message)
        }
        guard let claims = AppleDouble.claims(of: token) else {
            let message = "Unable to detect issuer in ID token for Apple provider"
            throw Failure(status: 400, code: "validation_failed", message: message)
        }
        guard claims["iss"] as? String == AppleDouble.issuer, AppleDouble.verify(token, keys),
            let expires = claims["exp"] as? Int, expires > now
        else {
            return Self.oauthError("invalid request", "Bad ID token")
        }
        guard let sub = claims["sub"] as? String, !sub.isEmpty else {
            return Self.oauthError("invalid request", "Missing sub claim in id_token")
        }
        guard AppleDouble.audiences(of: claims).contains(where: state.appleClientIDs.contains) else {
            return Self.oauthError("invalid request", "Unacceptable audience in id_token")
        }
        let sent = body["nonce"] as? String ?? ""
        let claimed = claims["nonce"] as? String ?? ""
        guard sent.isEmpty == claimed.isEmpty else {
            return Self.oauthError(
                "invalid request",
                "Passed nonce and nonce in id_token should either both exist or not."
            )
        }
        guard sent.isEmpty || Self.sha256Hex(sent) == claimed else {
            return Self.oauthError("invalid nonce", "Nonces mismatch")
        }
        let owner = appleUser(sub: sub, claims: claims, &state)
        let tokens = issue(&state, user: owner, method: "oauth")
        return .json(200, sessionObject(tokens, user: owner, state))
    }

    /// The user of an Apple identity: known by its `sub`, else the user with the token's verified email (linked
    /// now), else a new user whose provider is `apple`.
    private func appleUser(sub: String, claims: [String: Any], _ state: inout GoTrueState) -> GoTrueState.User {
        if let id = state.appleIdentities[sub], let user = state.users[id] { return user }
        let email = claims["email"] as? String ?? ""
        let verified = claims["email_verified"] as? Bool == true || claims["email_verified"] as? String == "true"
        if verified, !email.isEmpty, let user = state.users.values.first(where: { $0.email == email }) {
            state.appleIdentities[sub] = user.id
            return user
        }
        let id = UUID().uuidString.lowercased()
        let user = GoTrueState.User(id: id, email: email, password: "", provider: "apple")
        state.users[id] = user
        state.appleIdentities[sub] = id
        return user
    }

    static func oauthError(_ error: String, _ description: String) -> DoubleResponse {
        .json(400, ["error": error, "error_description": description])
    }

    /// Lowercase hex SHA-256 of `text`, computed by `openssl dgst` (not linkd's own hash).
    static func sha256Hex(_ text: String) -> String? {
        sha256(text).map { digest in digest.map { String(format: "%02x", $0) }.joined() }
    }
}
