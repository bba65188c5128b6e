import Foundation
import LinkdSystem

extension GoTrueDouble {
    /// Enrols a verified TOTP factor for the user with `email` whose authenticator app holds `secret`; returns the
    /// factor's id.
    @discardableResult
    package func enrollTOTP(for email: String, friendlyName: String = "", secret: [UInt8]) -> String? {
        enroll(for: email, type: "totp", friendlyName: friendlyName, secret: secret)
    }

    /// Enrols a verified factor of a type linkd cannot prove with a code (`webauthn`: a security key).
    @discardableResult
    package func enrollSecurityKey(for email: String) -> String? {
        enroll(for: email, type: "webauthn", friendlyName: "key", secret: [])
    }

    /// The code the authenticator app of the user's TOTP factor shows now, by the double's clock.
    package func authenticatorCode(for email: String) -> String? {
        service.state.withLock { state in
            guard let user = state.users.values.first(where: { $0.email == email }),
                let factor = state.factors.values.first(where: { $0.userID == user.id && $0.type == "totp" })
            else { return nil }
            return TOTP(secret: factor.secret).code(at: service.now)
        }
    }

    private func enroll(for email: String, type: String, friendlyName: String, secret: [UInt8]) -> String? {
        service.state.withLock { state in
            guard let user = state.users.values.first(where: { $0.email == email }) else { return nil }
            let id = UUID().uuidString.lowercased()
            state.factors[id] = GoTrueState.Factor(
                id: id,
                userID: user.id,
                type: type,
                friendlyName: friendlyName,
                verified: true,
                secret: secret
            )
            return id
        }
    }
}

extension GoTrueService {
    /// How long a challenge may be verified (GoTrue's `MFA_CHALLENGE_EXPIRY_DURATION` default, 300 s).
    static let challengeLifetime = 300

    /// A factor as GoTrue lists it in a user's `factors` (`models.Factor`'s JSON): never its secret.
    func factorObject(_ factor: GoTrueState.Factor) -> [String: Any] {
        [
            "id": factor.id, "status": factor.verified ? "verified" : "unverified", "factor_type": factor.type,
            "friendly_name": factor.friendlyName, "created_at": "2026-01-01T00:00:00Z",
            "updated_at": "2026-01-01T00:00:00Z",
        ]
    }

    /// `POST /factors/{id}/challenge` and `POST /factors/{id}/verify` (GoTrue's `mfa.go`, `admin.go loadFactor`), for
    /// TOTP factors: the factor must be the session's user's; a challenge is verified once, within its lifetime; a
    /// right code (RFC 6238, skew 1) makes the session AAL2, ends the user's other AAL1 sessions and answers with a
    /// session.
    func factor(_ request: ReceivedRequest, _ state: inout GoTrueState) throws -> DoubleResponse {
        let (session, _) = try session(of: request, state)
        let parts = request.path.dropFirst("/auth/v1/factors/".count).split(separator: "/").map(String.init)
        guard parts.count == 2, UUID(uuidString: parts[0]) != nil else {
            throw Failure(status: 404, code: "validation_failed", message: "factor_id must be an UUID")
        }
        guard let factor = state.factors[parts[0]], factor.userID == session.userID else {
            throw Failure(status: 404, code: "mfa_factor_not_found", message: "Factor not found")
        }
        switch parts[1] {
        case "challenge":
            let id = UUID().uuidString.lowercased()
            state.challenges[id] = GoTrueState.Challenge(factorID: factor.id, created: now)
            return .json(200, ["id": id, "type": factor.type, "expires_at": now + Self.challengeLifetime])
        case "verify":
            return try verifyFactor(factor, session: session, request, &state)
        default:
            throw Failure(status: 404, code: "not_found", message: "Not found")
        }
    }

    private func verifyFactor(
        _ factor: GoTrueState.Factor,
        session: GoTrueState.Session,
        _ request: ReceivedRequest,
        _ state: inout GoTrueState
    ) throws -> DoubleResponse {
        let body = request.jsonBody ?? [:]
        guard let code = body["code"] as? String, !code.isEmpty else {
            throw Failure(status: 400, code: "validation_failed", message: "Code needs to be non-empty")
        }
        guard let challengeID = body["challenge_id"] as? String, let challenge = state.challenges[challengeID],
            challenge.factorID == factor.id
        else {
            throw Failure(
                status: 422,
                code: "mfa_factor_not_found",
                message: "MFA factor with the provided challenge ID not found"
            )
        }
        guard !challenge.verified else {
            throw Failure(
                status: 422,
                code: "mfa_ip_address_mismatch",
                message: "Challenge and verify IP addresses mismatch."
            )
        }
        guard now < challenge.created + Self.challengeLifetime else {
            state.challenges[challengeID] = nil
            throw Failure(
                status: 422,
                code: "mfa_challenge_expired",
                message: "MFA challenge \(challengeID) has expired, verify against another challenge or create a new "
                    + "challenge."
            )
        }
        guard factor.type == "totp", TOTP(secret: factor.secret).accepts(code, at: now) else {
            throw Failure(status: 422, code: "mfa_verification_failed", message: "Invalid TOTP code entered")
        }
        state.challenges[challengeID]?.verified = true
        state.sessions[session.id]?.aal = "aal2"
        for (id, other) in state.sessions
        where other.userID == session.userID && id != session.id && other.aal != "aal2" {
            state.sessions[id]?.revoked = true
        }
        let owner = try user(session.userID, state)
        let tokens = issue(&state, user: owner, method: session.method, sessionID: session.id)
        return .json(200, sessionObject(tokens, user: owner, state))
    }
}
