import Foundation

extension GoTrueService {
    /// One error in whichever shape the request asked for (A.6).
    struct Failure: Error {
        var status: Int
        var code: String
        var message: String
        /// For `weak_password`: the reasons (`length`, `characters`, `pwned`).
        var reasons: [String]? = nil
    }

    func route(_ request: ReceivedRequest, _ state: inout GoTrueState) -> DoubleResponse {
        let current = request.header("X-Supabase-Api-Version") == "2024-01-01"
        // The emailed link: a browser opens it, so it carries no apikey, and GoTrue asks for none there.
        if request.method == "GET" && request.path == "/auth/v1/verify" { return verifyLink(request, &state) }
        if request.method == "GET" && request.path == "/auth/v1/authorize" { return authorize(request, &state) }
        guard request.header("apikey") == GoTrueDouble.apiKey else {
            return .json(
                401,
                [
                    "message": "No API key found in request",
                    "hint": "No `apikey` request header or url param was found.",
                ]
            )
        }
        if !state.faults.isEmpty {
            let status = state.faults.removeFirst()
            return .json(status, ["message": "upstream unavailable"])  // what a gateway in front of GoTrue says
        }
        do {
            switch (request.method, request.path) {
            case ("GET", "/auth/v1/user"): return try getUser(request, &state)
            case ("PUT", "/auth/v1/user"): return try updateUser(request, &state)
            case ("POST", "/auth/v1/token"): return try token(request, &state)
            case ("POST", "/auth/v1/verify"): return try verify(request, &state)
            case ("POST", "/auth/v1/logout"): return try logout(request, &state)
            case ("POST", "/auth/v1/recover"): return try recover(request, &state)
            case ("POST", "/auth/v1/otp"): return try otp(request, &state)
            case ("POST", let path) where path.hasPrefix("/auth/v1/factors/"): return try factor(request, &state)
            default: throw Failure(status: 404, code: "not_found", message: "Not found")
            }
        } catch var failure as Failure {
            if state.quotesRequests {
                let body = String(decoding: request.body, as: UTF8.self)
                failure.message += " (request: \(body), Authorization: \(request.header("Authorization") ?? "none"))"
            }
            return Self.render(failure, current: current)
        } catch {
            return Self.render(Failure(status: 500, code: "unexpected_failure", message: "\(error)"), current: current)
        }
    }

    static func render(_ failure: Failure, current: Bool) -> DoubleResponse {
        var body: [String: Any] =
            current
            ? ["code": failure.code, "message": failure.message]
            : ["code": failure.status, "error_code": failure.code, "msg": failure.message]
        if let reasons = failure.reasons { body["weak_password"] = ["reasons": reasons] }
        var headers: [(name: String, value: String)] = [("x-sb-error-code", failure.code)]
        if current { headers.append(("X-Supabase-Api-Version", "2024-01-01")) }
        return .json(failure.status, body, headers: headers)
    }

    /// The session of a request's `Authorization: Bearer <jwt>` (A.0: the scheme word in any case, one space).
    func session(of request: ReceivedRequest, _ state: GoTrueState) throws -> (GoTrueState.Session, String) {
        guard let value = request.header("Authorization"), value.lowercased().hasPrefix("bearer "),
            case let token = String(value.dropFirst(7)), !token.isEmpty, !token.contains(" ")
        else {
            throw Failure(status: 401, code: "no_authorization", message: "This endpoint requires a valid Bearer token")
        }
        guard let issued = state.accessTokens[token] else {
            throw Failure(
                status: 403,
                code: "bad_jwt",
                message: "invalid JWT: unable to parse or verify signature, token is malformed"
            )
        }
        guard issued.expires > now else {
            throw Failure(
                status: 403,
                code: "bad_jwt",
                message: "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired"
            )
        }
        guard let session = state.sessions[issued.sessionID], !session.revoked else {
            throw Failure(
                status: 403,
                code: "session_not_found",
                message: "Session from session_id claim in JWT does not exist"
            )
        }
        return (session, token)
    }

    func user(_ id: String, _ state: GoTrueState) throws -> GoTrueState.User {
        guard let user = state.users[id] else {
            throw Failure(status: 403, code: "user_not_found", message: "User from sub claim in JWT does not exist")
        }
        return user
    }

    func userObject(_ user: GoTrueState.User, _ state: GoTrueState) -> [String: Any] {
        var object: [String: Any] = [
            "id": user.id, "aud": "authenticated", "role": "authenticated", "email": user.email, "phone": "",
            "app_metadata": ["provider": user.provider, "providers": [user.provider]], "user_metadata": [:],
        ]
        let factors = state.factors.values.filter { $0.userID == user.id }.sorted { $0.id < $1.id }
        if !factors.isEmpty { object["factors"] = factors.map(factorObject) }
        return object
    }

    func sessionObject(
        _ tokens: (access: String, refresh: String, expiresAt: Int),
        user: GoTrueState.User,
        _ state: GoTrueState
    )
        -> [String: Any]
    {
        [
            "access_token": tokens.access, "token_type": "bearer", "expires_in": tokens.expiresAt - now,
            "expires_at": tokens.expiresAt, "refresh_token": tokens.refresh, "user": userObject(user, state),
        ]
    }

    private func getUser(_ request: ReceivedRequest, _ state: inout GoTrueState) throws -> DoubleResponse {
        let (session, _) = try session(of: request, state)
        return .json(200, userObject(try user(session.userID, state), state))
    }

    private func updateUser(_ request: ReceivedRequest, _ state: inout GoTrueState) throws -> DoubleResponse {
        let (session, _) = try session(of: request, state)
        guard let password = request.jsonBody?["password"] as? String else {
            throw Failure(status: 400, code: "bad_json", message: "Could not parse request body as JSON")
        }
        guard password.utf8.count <= 72 else {
            throw Failure(
                status: 400,
                code: "validation_failed",
                message: "Password cannot be longer than 72 characters"
            )
        }
        guard password.count >= GoTrueDouble.minimumPasswordLength else {
            throw Failure(
                status: 422,
                code: "weak_password",
                message: "Password should be at least \(GoTrueDouble.minimumPasswordLength) characters.",
                reasons: ["length"]
            )
        }
        var user = try user(session.userID, state)
        // `user.go`: a user with a verified factor changes the password only in an AAL2 session.
        if state.factors.values.contains(where: { $0.userID == user.id && $0.verified }) && session.aal != "aal2" {
            throw Failure(
                status: 401,
                code: "insufficient_aal",
                message: "AAL2 session is required to update email or password when MFA is enabled."
            )
        }
        guard password != user.password else {
            throw Failure(
                status: 422,
                code: "same_password",
                message: "New password should be different from the old password."
            )
        }
        user.password = password
        state.users[user.id] = user
        // A.3: every other session is logged out and every outstanding one-time token dies.
        for (id, other) in state.sessions where other.userID == user.id && id != session.id {
            state.sessions[id]?.revoked = true
        }
        state.recoveryHashes = state.recoveryHashes.filter { $0.value != user.id }
        state.recoveryCodes[user.id] = nil
        return .json(200, userObject(user, state))
    }

    private func token(_ request: ReceivedRequest, _ state: inout GoTrueState) throws -> DoubleResponse {
        if request.query["grant_type"] == "pkce" { return try exchangePKCE(request, &state) }
        if request.query["grant_type"] == "password" { return try passwordGrant(request, &state) }
        if request.query["grant_type"] == "id_token" { return try idTokenGrant(request, &state) }
        guard request.query["grant_type"] == "refresh_token" else {
            throw Failure(status: 400, code: "invalid_credentials", message: "unsupported_grant_type")
        }
        guard let refresh = request.jsonBody?["refresh_token"] as? String, refresh.count >= 12 else {
            throw Failure(status: 400, code: "validation_failed", message: "Refresh token is not valid")
        }
        if state.usedRefreshTokens.contains(refresh) {
            throw Failure(
                status: 400,
                code: "refresh_token_already_used",
                message: "Invalid Refresh Token: Already Used"
            )
        }
        guard let sessionID = state.refreshTokens[refresh] else {
            throw Failure(
                status: 400,
                code: "refresh_token_not_found",
                message: "Invalid Refresh Token: Refresh Token Not Found"
            )
        }
        guard let session = state.sessions[sessionID], !session.revoked else {
            throw Failure(
                status: 400,
                code: "session_not_found",
                message: "Invalid Refresh Token: No Valid Session Found"
            )
        }
        state.refreshTokens[refresh] = nil
        state.usedRefreshTokens.insert(refresh)
        let owner = try user(session.userID, state)
        let tokens = issue(&state, user: owner, method: session.method, sessionID: sessionID)
        return .json(200, sessionObject(tokens, user: owner, state))
    }

    private func verify(_ request: ReceivedRequest, _ state: inout GoTrueState) throws -> DoubleResponse {
        let body = request.jsonBody ?? [:]
        guard let type = body["type"] as? String, !type.isEmpty else {
            throw Failure(status: 400, code: "validation_failed", message: "Verify requires a verification type")
        }
        if body["token_hash"] == nil, body["token"] != nil { return try verifyCode(body, type: type, &state) }
        guard let hash = body["token_hash"] as? String, !hash.isEmpty else {
            throw Failure(
                status: 400,
                code: "validation_failed",
                message: "Verify requires either a token or a token hash"
            )
        }
        guard Set(body.keys) == ["token_hash", "type"] else {
            throw Failure(
                status: 400,
                code: "validation_failed",
                message: "Only the token_hash and type should be provided"
            )
        }
        // A.12: signup and invite hashes are confirmation tokens, magiclink and recovery ones share the recovery
        // token, and `email` tries the confirmation token first. (email_change is not modelled.)
        let found: String?
        switch type {
        case "signup", "invite": found = state.confirmationHashes.removeValue(forKey: hash)
        case "recovery", "magiclink": found = state.recoveryHashes.removeValue(forKey: hash)
        case "email":
            found = state.confirmationHashes.removeValue(forKey: hash) ?? state.recoveryHashes.removeValue(forKey: hash)
        default: throw Failure(status: 400, code: "validation_failed", message: "Unsupported verification type")
        }
        guard let userID = found else {
            throw Failure(status: 403, code: "otp_expired", message: "Email link is invalid or has expired")
        }
        if type != "signup" && type != "invite" { state.recoveryCodes[userID] = nil }  // the email's code goes with it
        let owner = try user(userID, state)
        let tokens = issue(&state, user: owner, method: "otp")
        return .json(200, sessionObject(tokens, user: owner, state))
    }

    private func logout(_ request: ReceivedRequest, _ state: inout GoTrueState) throws -> DoubleResponse {
        let (session, _) = try session(of: request, state)
        switch request.query["scope"] ?? "global" {
        case "local": state.sessions[session.id]?.revoked = true
        case "others":
            for (id, other) in state.sessions where other.userID == session.userID && id != session.id {
                state.sessions[id]?.revoked = true
            }
        case "global":
            for (id, other) in state.sessions where other.userID == session.userID {
                state.sessions[id]?.revoked = true
            }
        case let scope:
            throw Failure(status: 400, code: "validation_failed", message: "Unsupported logout scope \"\(scope)\"")
        }
        return DoubleResponse(status: 204)
    }
}
