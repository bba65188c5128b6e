import Foundation
import LinkdSystem

/// A test double of Atlas App Services' client API built from backend-contract.md §B, over real HTTP: the
/// email/password provider at `/api/client/v2.0/app/<appId>/auth/providers/local-userpass/…`, with single-use reset
/// and confirmation tokens (`token` + `tokenId`, valid 30 minutes) and the 6–128 character password rule; Sign in
/// with Apple (`oauth2-apple/login`), the profile and sign-out (see `AppServicesDouble+Apple.swift`); errors as
/// `{error, error_code, link}` with `Content-Type: application/json` exactly, as realm-core requires.
package final class AppServicesDouble: Sendable {
    package static let appID = "linkd-test-abcde"
    /// The error code for a password outside 6–128 characters; the contract could not establish the real one.
    package static let passwordErrorCode = "InvalidPassword"

    struct Pending {
        var email: String
        var tokenID: String
        var issued: Date
    }

    struct State {
        var passwords: [String: String] = [:]
        var confirmed: Set<String> = []
        /// token → pending reset or confirmation.
        var resets: [String: Pending] = [:]
        var confirmations: [String: Pending] = [:]
        /// Emails the double "sent": address → the token and tokenId.
        var sentResets: [String: (token: String, tokenID: String)] = [:]
        /// The `oauth2-apple` provider's client ids (none: the provider is not set up) and Apple's keys.
        var appleClientIDs: [String] = []
        var appleKeys: RSAKeyFiles?
        /// Apple `sub` → user id; user id → the email of its profile.
        var appleUsers: [String: String] = [:]
        var emails: [String: String] = [:]
        /// Live sessions: access token → user id, refresh token → user id.
        var accessTokens: [String: String] = [:]
        var refreshTokens: [String: String] = [:]
        /// How many confirmation emails `confirm/send` "sent" to each address.
        var sentConfirmations: [String: Int] = [:]
        /// Whether the provider's reset function fails (B.3: `failed to reset password for user "<email>"`).
        var resetFunctionFails = false
    }

    /// The state, shared with the server's connection threads.
    final class Store: Sendable {
        let state = Lock(State())
    }

    let store = Store()
    private let server: TestHTTPServer

    package init() throws {
        server = try TestHTTPServer { [store] request in store.state.withLock { Self.route(request, &$0) } }
    }

    deinit { server.stop() }

    /// `http://127.0.0.1:<port>`: the `url` of an `appservices` backend.
    package var baseURL: String { server.baseURL }

    package var requests: [ReceivedRequest] { server.requests }

    package func addUser(email: String, password: String) {
        store.state.withLock {
            $0.passwords[email] = password
            $0.confirmed.insert(email)
        }
    }

    package func password(of email: String) -> String? { store.state.withLock { $0.passwords[email] } }

    /// Registers `email` unconfirmed (as `…/register` does) and returns the `token` and `tokenId` its confirmation
    /// email carries.
    package func register(email: String, password: String) -> (token: String, tokenID: String) {
        store.state.withLock { state in
            let token = Self.hex(64)
            let tokenID = Self.hex(24)
            state.passwords[email] = password
            state.confirmations[token] = Pending(email: email, tokenID: tokenID, issued: Date())
            return (token, tokenID)
        }
    }

    /// Whether `email`'s account is confirmed.
    package func isConfirmed(_ email: String) -> Bool { store.state.withLock { $0.confirmed.contains(email) } }

    /// A reset link's `token` and `tokenId`, as the reset email carries them; `age` back-dates it.
    package func resetToken(for email: String, age: Double = 0) -> (token: String, tokenID: String) {
        store.state.withLock { state in
            let token = Self.hex(64)
            let tokenID = Self.hex(24)
            state.resets[token] = Pending(email: email, tokenID: tokenID, issued: Date().addingTimeInterval(-age))
            return (token, tokenID)
        }
    }

    /// How many confirmation emails `…/confirm/send` "sent" to `email`.
    package func sentConfirmations(to email: String) -> Int {
        store.state.withLock { $0.sentConfirmations[email] ?? 0 }
    }

    /// Makes the provider's reset function fail (`reset/call`), or work again.
    package func setResetFunctionFails(_ fails: Bool) {
        store.state.withLock { $0.resetFunctionFails = fails }
    }

    /// The token and tokenId of the last reset email `…/reset/send` "sent" to `email`.
    package func sentReset(to email: String) -> (token: String, tokenID: String)? {
        store.state.withLock { $0.sentResets[email] }
    }

    static func hex(_ count: Int) -> String {
        (0..<count / 2).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    static func error(_ status: Int, _ reason: String, _ code: String) -> DoubleResponse {
        .json(
            status,
            [
                "error": reason, "error_code": code,
                "link": "https://services.cloud.mongodb.com/groups/g/apps/a/logs?co_id=c",
            ]
        )
    }

    static func route(_ request: ReceivedRequest, _ state: inout State) -> DoubleResponse {
        if let answer = sessionRoute(request, &state) { return answer }
        let prefix = "/api/client/v2.0/app/\(appID)/auth/providers/local-userpass/"
        guard request.method == "POST", request.path.hasPrefix(prefix) else {
            return error(404, "route not found", "InvalidParameter")
        }
        guard let body = request.jsonBody else { return error(400, "invalid JSON", "BadRequest") }
        switch String(request.path.dropFirst(prefix.count)) {
        case "reset": return reset(body, &state)
        case "confirm":
            // B.2: single use, 30 minutes; a bad token is `400 UserpassTokenInvalid "invalid token data"`.
            guard let token = body["token"] as? String, let tokenID = body["tokenId"] as? String else {
                return error(400, "expected token and tokenId", "MissingParameter")
            }
            guard let pending = state.confirmations[token], pending.tokenID == tokenID,
                Date().timeIntervalSince(pending.issued) < 30 * 60
            else { return error(400, "invalid token data", "UserpassTokenInvalid") }
            state.confirmations[token] = nil
            state.confirmed.insert(pending.email)
            return .json(200, [:])
        case "reset/call":
            // B.3: the function gets the email, the new password and the arguments; an unknown user is
            // `UserNotFound`, a function that fails says so for the email. This function sets the password at once.
            guard let email = body["email"] as? String, let password = body["password"] as? String,
                body["arguments"] is [Any]
            else { return error(400, "expected email, password and arguments", "MissingParameter") }
            guard state.passwords[email] != nil else { return error(404, "user not found", "UserNotFound") }
            guard !state.resetFunctionFails else {
                return error(400, "failed to reset password for user \"\(email)\"", "FunctionExecutionError")
            }
            state.passwords[email] = password
            return .json(200, [:])
        case "confirm/send", "confirm/call":
            // B.2: an unknown user is `UserNotFound`, a confirmed one `already confirmed`; a resend "emails" a new
            // confirmation link, a retry runs the confirmation function (which here confirms at once).
            guard let email = body["email"] as? String, state.passwords[email] != nil else {
                return error(404, "user not found", "UserNotFound")
            }
            guard !state.confirmed.contains(email) else {
                return error(400, "already confirmed", "UserAlreadyConfirmed")
            }
            if request.path.hasSuffix("/confirm/call") {
                state.confirmed.insert(email)
            } else {
                let token = hex(64)
                state.confirmations[token] = Pending(email: email, tokenID: hex(24), issued: Date())
                state.sentConfirmations[email, default: 0] += 1
            }
            return .json(200, [:])
        case "reset/send":
            guard let email = body["email"] as? String, state.passwords[email] != nil else {
                return error(404, "user not found", "UserNotFound")
            }
            let token = hex(64)
            let tokenID = hex(24)
            state.resets[token] = Pending(email: email, tokenID: tokenID, issued: Date())
            state.sentResets[email] = (token, tokenID)
            return .json(200, [:])
        default: return error(404, "route not found", "InvalidParameter")
        }
    }

    private static func reset(_ body: [String: Any], _ state: inout State) -> DoubleResponse {
        guard let token = body["token"] as? String, let tokenID = body["tokenId"] as? String,
            let password = body["password"] as? String
        else { return error(400, "expected token, tokenId and password", "MissingParameter") }
        guard let pending = state.resets[token], pending.tokenID == tokenID,
            Date().timeIntervalSince(pending.issued) < 30 * 60
        else { return error(400, "invalid token data", "UserpassTokenInvalid") }
        guard (6...128).contains(password.count) else {
            return error(400, "password must be between 6 and 128 characters", passwordErrorCode)
        }
        state.resets[token] = nil
        state.passwords[pending.email] = password
        return .json(200, [:])
    }
}
