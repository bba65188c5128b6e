import Foundation
import LinkdSystem

extension GoTrueService {
    /// `POST /otp` (A.11, GoTrue's `internal/api/otp.go` and `magic_link.go`): 200 `{}`; for a confirmed user and a
    /// challenge, a flow state of method `magiclink` whose code the email's link leads to (`redirect_to?code=…`, as
    /// `GET /verify` would redirect). With `create_user: false`, an address with no account is `422 otp_disabled`.
    ///
    /// Not modelled: the phone variant (`phone_provider_disabled`), captcha, rate limits, and what GoTrue mails
    /// without a challenge (an implicit link) or to a new user with `create_user` true (a signup confirmation):
    /// there the double answers 200 and mails nothing, since linkd always asks with a challenge and for an existing
    /// account.
    func otp(_ request: ReceivedRequest, _ state: inout GoTrueState) throws -> DoubleResponse {
        let body = request.jsonBody ?? [:]
        if body["phone"] != nil {
            throw Failure(status: 422, code: "phone_provider_disabled", message: "Unsupported phone provider")
        }
        guard let email = body["email"] as? String, !email.isEmpty else {
            throw Failure(status: 400, code: "validation_failed", message: "One of email or phone must be set")
        }
        if let create = body["create_user"], !(create is Bool) {
            throw Failure(status: 400, code: "bad_json", message: "Could not parse request body as JSON")
        }
        let challenge = try Self.challenge(in: body)
        guard let user = state.users.values.first(where: { $0.email == email }) else {
            if body["create_user"] as? Bool == false {
                throw Failure(status: 422, code: "otp_disabled", message: "Signups not allowed for otp")
            }
            return .json(200, [:])
        }
        state.recoveryCodes[user.id] = Self.newEmailCode()
        if let challenge {
            state.counter += 1
            state.flows[UUID().uuidString.lowercased()] = GoTrueState.Flow(
                userID: user.id,
                challenge: challenge,
                created: now * 1000 + state.counter,
                method: "magiclink",
                redirectTo: request.query["redirect_to"]
            )
        }
        return .json(200, [:])
    }

    /// The S256 challenge of a request's body (`code_challenge` with `code_challenge_method`), `nil` when it has
    /// none; both or neither, 43 to 128 characters (A.9's PKCE messages).
    static func challenge(in body: [String: Any]) throws -> String? {
        let challenge = body["code_challenge"] as? String
        let method = body["code_challenge_method"] as? String
        if (challenge == nil) != (method == nil) {
            throw Failure(
                status: 400,
                code: "validation_failed",
                message: "PKCE flow requires code_challenge_method and code_challenge"
            )
        }
        if let challenge, !(43...128).contains(challenge.count) {
            throw Failure(
                status: 400,
                code: "validation_failed",
                message: "code challenge has to be between 43 and 128 characters"
            )
        }
        return challenge
    }
}

extension GoTrueService {
    /// `POST /verify` with `{email, token, type}` (A.12, `verify.go verifyPost`): the 6-digit code of the user's newest
    /// recovery or magic-link email (`recovery`, `magiclink`, or `email`, which takes either here since the double
    /// mails no signup codes), used once, gives a session with amr `otp`; any other code is `403 otp_expired`.
    func verifyCode(_ body: [String: Any], type: String, _ state: inout GoTrueState) throws -> DoubleResponse {
        guard let email = body["email"] as? String, !email.isEmpty, body["phone"] == nil else {
            throw Failure(
                status: 400,
                code: "validation_failed",
                message: "Only an email address or phone number should be provided on verify"
            )
        }
        guard ["recovery", "magiclink", "email"].contains(type) else {
            throw Failure(status: 400, code: "validation_failed", message: "Unsupported verification type")
        }
        let token = body["token"] as? String ?? ""
        guard let user = state.users.values.first(where: { $0.email == email }),
            let code = state.recoveryCodes[user.id], code == token
        else {
            throw Failure(status: 403, code: "otp_expired", message: "Token has expired or is invalid")
        }
        // The code and the email's link are one recovery token: using either ends both.
        state.recoveryCodes[user.id] = nil
        state.recoveryHashes = state.recoveryHashes.filter { $0.value != user.id }
        state.flows = state.flows.filter { $0.value.userID != user.id || $0.value.method == "oauth" }
        let tokens = issue(&state, user: user, method: "otp")
        return .json(200, sessionObject(tokens, user: user, state))
    }
}

extension GoTrueDouble {
    /// The 6-digit code the newest recovery or magic-link email of `email` carries (`{{ .Token }}`), until it is used.
    package func emailedCode(for email: String) -> String? {
        service.state.withLock { state in
            state.users.values.first { $0.email == email }.flatMap { state.recoveryCodes[$0.id] }
        }
    }
}
