import Foundation
import LinkdSystem

extension AppServicesDouble {
    /// Sets up the `oauth2-apple` provider with `clientIDs` (App Services keeps one, the Services ID for Apple's web
    /// flow; more let a test try a foreign audience), trusting the id tokens `apple` signs.
    package func enableApple(clientIDs: [String], keysOf apple: AppleDouble) {
        store.state.withLock { state in
            state.appleClientIDs = clientIDs
            state.appleKeys = apple.keys
        }
    }

    /// The email of the user the Apple identity `sub` signed in as, if any.
    package func appleUserEmail(sub: String) -> String? {
        store.state.withLock { state in state.appleUsers[sub].flatMap { state.emails[$0] } }
    }

    /// The sessions of the user with `email` that were not signed out.
    package func liveSessionCount(for email: String) -> Int {
        store.state.withLock { state in state.refreshTokens.values.count { state.emails[$0] == email } }
    }

    /// The routes of a session (contract B.5–B.7, realm-core's `app.cpp`), or `nil` for another request:
    ///
    /// - `POST /api/client/v2.0/app/<appId>/auth/providers/oauth2-apple/login` with `{"provider": "oauth2-apple",
    ///   "id_token", "options": {"device"}}` and no Authorization: the token's RS256 signature against Apple's key,
    ///   its `iss`, `exp` and an `aud` among the provider's client ids; never a nonce, which App Services does not
    ///   get. The user is the one of the token's `sub`, else a new one with the token's email. The answer is
    ///   `{"access_token", "refresh_token", "user_id", "device_id"}`, both tokens JWTs with `exp` and `iat`.
    /// - `GET /api/client/v2.0/auth/profile` with the access token: `{"user_id", "identities": [{"id",
    ///   "provider_type"}], "data": {"email"}}`.
    /// - `DELETE /api/client/v2.0/auth/session` with the refresh token: the session ends.
    ///
    /// Where the contract is silent the answers are the doubles' own assumptions (backend-contract.md B.7 says which
    /// are known): `400 BadRequest` for a body without `id_token` or `provider`, `401 AuthError "failed to validate
    /// id_token: …"` for a token App Services would not accept, `404 AuthProviderNotFound` when the provider is not
    /// set up, and `401 InvalidSession` for an unknown bearer token.
    static func sessionRoute(_ request: ReceivedRequest, _ state: inout State) -> DoubleResponse? {
        switch (request.method, request.path) {
        case ("POST", "/api/client/v2.0/app/\(appID)/auth/providers/oauth2-apple/login"):
            return appleLogin(request, &state)
        case ("GET", "/api/client/v2.0/auth/profile"):
            guard let user = bearer(request).flatMap({ state.accessTokens[$0] }) else { return invalidSession }
            let sub = state.appleUsers.first { $0.value == user }?.key ?? user
            return .json(
                200,
                [
                    "user_id": user, "identities": [["id": sub, "provider_type": "oauth2-apple"]],
                    "data": ["email": state.emails[user] ?? ""],
                ]
            )
        case ("DELETE", "/api/client/v2.0/auth/session"):
            guard let refresh = bearer(request), state.refreshTokens.removeValue(forKey: refresh) != nil else {
                return invalidSession
            }
            return .json(200, [:])
        default:
            return nil
        }
    }

    private static var invalidSession: DoubleResponse { error(401, "invalid session", "InvalidSession") }

    private static func bearer(_ request: ReceivedRequest) -> String? {
        guard let value = request.header("Authorization"), value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst("Bearer ".count))
    }

    private static func appleLogin(_ request: ReceivedRequest, _ state: inout State) -> DoubleResponse {
        guard let body = request.jsonBody, body["provider"] as? String == "oauth2-apple",
            let token = body["id_token"] as? String
        else { return error(400, "expected provider oauth2-apple and an id_token", "BadRequest") }
        guard let keys = state.appleKeys, !state.appleClientIDs.isEmpty else {
            return error(404, "authentication provider not found", "AuthProviderNotFound")
        }
        guard let claims = AppleDouble.claims(of: token), AppleDouble.verify(token, keys) else {
            return error(401, "failed to validate id_token: token signature is invalid", "AuthError")
        }
        guard claims["iss"] as? String == AppleDouble.issuer else {
            return error(401, "failed to validate id_token: 'iss' is not Apple's", "AuthError")
        }
        guard let expires = claims["exp"] as? Int, expires > Int(Date().timeIntervalSince1970) else {
            return error(401, "failed to validate id_token: token is expired", "AuthError")
        }
        guard AppleDouble.audiences(of: claims).contains(where: state.appleClientIDs.contains),
            let sub = claims["sub"] as? String
        else {
            return error(
                401,
                "invalid apple id token: 'aud' must be a string containing the client_id",
                "AuthError"
            )
        }
        let user = state.appleUsers[sub] ?? hex(24)
        state.appleUsers[sub] = user
        if state.emails[user] == nil { state.emails[user] = claims["email"] as? String ?? "" }
        let now = Int(Date().timeIntervalSince1970)
        let access = jwt(["exp": now + 1_800, "iat": now, "sub": user, "typ": "access"])
        let refresh = jwt(["exp": now + 60 * 86_400, "iat": now, "sub": user, "typ": "refresh"])
        state.accessTokens[access] = user
        state.refreshTokens[refresh] = user
        return .json(200, ["access_token": access, "refresh_token": refresh, "user_id": user, "device_id": hex(24)])
    }

    /// A JWT of App Services' shape: HS256, the claims, a signature of random bytes (clients decode, never verify).
    private static func jwt(_ claims: [String: Any]) -> String {
        var claims = claims
        claims["jti"] = hex(16)  // two tokens of one second differ
        return GoTrueService.jwt(claims: claims, nonce: hex(32))
    }
}
