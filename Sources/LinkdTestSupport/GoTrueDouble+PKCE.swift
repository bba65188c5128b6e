import Foundation

extension GoTrueService {
    /// `POST /recover` (A.7): 200 `{}` for any address; for a known one with a challenge, a flow state whose code
    /// the email's link carries.
    func recover(_ request: ReceivedRequest, _ state: inout GoTrueState) throws -> DoubleResponse {
        let body = request.jsonBody ?? [:]
        guard let email = body["email"] as? String, !email.isEmpty else {
            throw Failure(status: 400, code: "validation_failed", message: "Password recovery requires an email")
        }
        let challenge = try Self.challenge(in: body)
        guard let user = state.users.values.first(where: { $0.email == email }) else { return .json(200, [:]) }
        state.recoveryCodes[user.id] = Self.newEmailCode()
        if let challenge {
            state.counter += 1
            let code = UUID().uuidString.lowercased()
            state.flows[code] = GoTrueState.Flow(
                userID: user.id,
                challenge: challenge,
                created: now * 1000 + state.counter,
                method: "recovery"
            )
        }
        return .json(200, [:])
    }

    /// A 6-digit code, as GoTrue's `crypto.GenerateOtp` makes for `{{ .Token }}` (`Mailer.OtpLength`).
    static func newEmailCode() -> String {
        String(format: "%06d", Int.random(in: 0..<1_000_000))
    }

    /// `POST /token?grant_type=pkce` (A.2): the flow's session when the verifier hashes to its challenge, with the
    /// flow's method as its `amr` (A.10); flow states are single use and live 300 s, and a wrong verifier leaves one.
    func exchangePKCE(_ request: ReceivedRequest, _ state: inout GoTrueState) throws -> DoubleResponse {
        let body = request.jsonBody ?? [:]
        guard let code = body["auth_code"] as? String, let verifier = body["code_verifier"] as? String,
            !code.isEmpty, !verifier.isEmpty
        else {
            throw Failure(
                status: 400,
                code: "validation_failed",
                message: "invalid request: both auth code and code verifier should be non-empty"
            )
        }
        guard let flow = state.flows[code] else {
            throw Failure(
                status: 404,
                code: "flow_state_not_found",
                message: "invalid flow state, no valid flow state found"
            )
        }
        guard flow.created / 1000 + 300 > now else {
            state.flows[code] = nil
            throw Failure(
                status: 422,
                code: "flow_state_expired",
                message: "invalid flow state, flow state has expired"
            )
        }
        guard Self.s256(verifier) == flow.challenge else {
            throw Failure(
                status: 400,
                code: "bad_code_verifier",
                message: "code challenge does not match previously saved code verifier"
            )
        }
        state.flows[code] = nil
        let owner = try user(flow.userID, state)
        let tokens = issue(&state, user: owner, method: flow.method)
        return .json(200, sessionObject(tokens, user: owner, state))
    }

    /// `POST /token?grant_type=password` (`token.go ResourceOwnerPasswordGrant`): a session signed in by password,
    /// whose `amr` is `password`.
    func passwordGrant(_ request: ReceivedRequest, _ state: inout GoTrueState) throws -> DoubleResponse {
        let body = request.jsonBody ?? [:]
        guard let email = body["email"] as? String, let password = body["password"] as? String,
            let owner = state.users.values.first(where: { $0.email == email && $0.password == password })
        else {
            throw Failure(status: 400, code: "invalid_credentials", message: "Invalid login credentials")
        }
        let tokens = issue(&state, user: owner, method: "password")
        return .json(200, sessionObject(tokens, user: owner, state))
    }

    /// BASE64URL(SHA-256(verifier)), computed by `openssl dgst` so the double does not share linkd's own hash.
    static func s256(_ verifier: String) -> String? {
        sha256(verifier).map(base64url)
    }

    /// SHA-256 of `text`'s UTF-8, computed by `openssl dgst` (not linkd's own hash).
    static func sha256(_ text: String) -> Data? {
        OpenSSLCommand.run(["dgst", "-sha256", "-binary"], input: Data(text.utf8)).flatMap { $0.count == 32 ? $0 : nil }
    }
}
