import Foundation
import LinkdSystem
import Synchronization

/// A test double of GoTrue (Supabase Auth) built from GoTrue's documented HTTP contract, served over real
/// HTTP on 127.0.0.1 at `/auth/v1`: JWT-issuing sessions, single-use recovery links, rotating refresh tokens, the
/// password rules, sign-out, and both error shapes chosen by the request's `X-Supabase-Api-Version`.
package final class GoTrueDouble: Sendable {
    package static let apiKey = "test-anon-key"
    package static let minimumPasswordLength = 6

    let service = GoTrueService()
    private let server: TestHTTPServer

    package init() throws {
        server = try TestHTTPServer { [service] request in service.handle(request) }
    }

    deinit { server.stop() }

    /// `http://127.0.0.1:<port>` — the `url` of a `supabase` backend (linkd appends `/auth/v1`).
    package var baseURL: String { server.baseURL }

    /// The port of `baseURL`.
    package var port: UInt16 { server.port }

    /// Every request received, in order.
    package var requests: [ReceivedRequest] { server.requests }

    /// Every request received, as `METHOD target`.
    package var requestLines: [String] { requests.map { "\($0.method) \($0.target)" } }

    /// What each received request lacks of the headers a client sends on a user's behalf (`apikey`, the API
    /// version, `Authorization: Bearer <accessToken>`): empty when every request carries them.
    package func missingSessionHeaders(accessToken: String) -> [String] {
        requests.flatMap { request in
            [
                ("apikey", Self.apiKey), ("X-Supabase-Api-Version", "2024-01-01"),
                ("Authorization", "Bearer " + accessToken),
            ]
            .filter { request.header($0.0) != $0.1 }
            .map { "\(request.method) \(request.target): \($0.0)" }
        }
    }

    /// Moves the double's clock forward (to expire access tokens).
    package func advanceClock(by seconds: Int) { service.clockOffset.add(seconds, ordering: .relaxed) }

    /// Adds a user; returns its id.
    @discardableResult
    package func addUser(email: String, password: String) -> String {
        service.state.withLock { state in
            let id = UUID().uuidString.lowercased()
            state.users[id] = GoTrueState.User(id: id, email: email, password: password)
            return id
        }
    }

    /// The user's current password (what a test checks after a reset).
    package func password(of email: String) -> String? {
        service.state.withLock { $0.users.values.first { $0.email == email }?.password }
    }

    /// What the email of a recovery request carries in the implicit flow: the tokens of the session GoTrue's
    /// `GET /verify` makes, whose `amr` is `otp` (`verify.go`), as in `…#access_token=…&refresh_token=…&type=recovery`.
    package func recoverySession(
        for email: String,
        expiresIn: Int = 3600
    ) -> (accessToken: String, refreshToken: String)? {
        session(for: email, method: "otp", expiresIn: expiresIn)
    }

    /// The tokens of a session signed in some other way than by an emailed link — `password` (what
    /// `POST /token?grant_type=password` gives), `oauth`, `sso/saml` — which someone could mail to another person as
    /// `…#access_token=…&refresh_token=…&type=recovery`.
    package func signedInSession(
        for email: String,
        method: String = "password"
    ) -> (accessToken: String, refreshToken: String)? {
        session(for: email, method: method, expiresIn: 3600)
    }

    /// Sets the project's allowed redirect URLs (`URI_ALLOW_LIST`) and its `SITE_URL`: a link's `redirect_to` that is
    /// not one of `allowed` leads to `siteURL` instead.
    package func allowRedirects(only allowed: [String], siteURL: String) {
        service.state.withLock {
            $0.allowedRedirects = allowed
            $0.siteURL = siteURL
        }
    }

    /// Makes the backend's error messages quote the request they refuse (its body and its Authorization header), as
    /// a careless gateway's do.
    package func quoteRequestsInErrors() {
        service.state.withLock { $0.quotesRequests = true }
    }

    private func session(
        for email: String,
        method: String,
        expiresIn: Int
    ) -> (accessToken: String, refreshToken: String)? {
        service.state.withLock { state in
            guard let user = state.users.values.first(where: { $0.email == email }) else { return nil }
            let tokens = service.issue(&state, user: user, method: method, expiresIn: expiresIn)
            return (tokens.access, tokens.refresh)
        }
    }

    /// A single-use `token_hash` for a recovery or magic link (`?token_hash=…&type=recovery`, `type=magiclink`).
    package func recoveryTokenHash(for email: String) -> String? { tokenHash(for: email, in: \.recoveryHashes) }

    /// A single-use `token_hash` for a signup or invite confirmation (`?token_hash=…&type=signup`).
    package func confirmationTokenHash(for email: String) -> String? {
        tokenHash(for: email, in: \.confirmationHashes)
    }

    private func tokenHash(for email: String, in hashes: WritableKeyPath<GoTrueState, [String: String]>) -> String? {
        service.state.withLock { state in
            guard let user = state.users.values.first(where: { $0.email == email }) else { return nil }
            let hash = (0..<28).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            state[keyPath: hashes][hash] = user.id
            return hash
        }
    }

    /// The next `count` requests are answered with `status` (a gateway's 503, say) before GoTrue sees them.
    package func failNext(_ count: Int, status: Int) {
        service.state.withLock { $0.faults += Array(repeating: status, count: count) }
    }

    /// What the email of a PKCE recovery request leads to: the `code` GoTrue's `/verify` redirect adds to the
    /// `redirect_to` link, for the newest flow of `email`.
    package func pkceCode(for email: String) -> String? {
        service.state.withLock { state in
            guard let user = state.users.values.first(where: { $0.email == email }) else { return nil }
            return state.flows.filter { $0.value.userID == user.id }.max { $0.value.created < $1.value.created }?.key
        }
    }

    /// The link the newest magic-link email of `email` leads to once GoTrue has verified it: the request's
    /// `redirect_to` with the flow's `code` (`com.example.app://signin?code=…`); `nil` when there is none.
    package func magicLinkRedirect(for email: String) -> String? {
        service.state.withLock { state in
            guard let user = state.users.values.first(where: { $0.email == email }),
                let (code, flow) = state.flows.filter({ $0.value.userID == user.id && $0.value.method == "magiclink" })
                    .max(by: { $0.value.created < $1.value.created }),
                let redirect = flow.redirectTo
            else { return nil }
            return redirect + (redirect.contains("?") ? "&" : "?") + "code=" + code
        }
    }

    /// How many sessions of the user with `email` are live (not logged out, not ended by a password change).
    package func liveSessionCount(for email: String) -> Int {
        service.state.withLock { state in
            let userIDs = Set(state.users.values.filter { $0.email == email }.map(\.id))
            return state.sessions.values.count { userIDs.contains($0.userID) && !$0.revoked }
        }
    }

    /// Every access token the double has issued, for the canary scans: none may show where it should not.
    package func issuedAccessTokens() -> [String] {
        service.state.withLock { Array($0.accessTokens.keys) }
    }

    /// Whether the session `accessToken` belongs to is still live (not logged out, not ended by a password change).
    package func isSessionLive(accessToken: String) -> Bool {
        service.state.withLock { state in
            guard let token = state.accessTokens[accessToken], let session = state.sessions[token.sessionID] else {
                return false
            }
            return !session.revoked
        }
    }
}

/// The double's behaviour, shared with its server's connection threads.
final class GoTrueService: Sendable {
    let state = Lock(GoTrueState())
    /// Seconds added to the clock.
    let clockOffset = Atomic<Int>(0)

    var now: Int { Int(Date().timeIntervalSince1970) + clockOffset.load(ordering: .relaxed) }

    func handle(_ request: ReceivedRequest) -> DoubleResponse {
        state.withLock { state in route(request, &state) }
    }

    func issue(
        _ state: inout GoTrueState,
        user: GoTrueState.User,
        method: String,
        expiresIn: Int = 3600,
        sessionID: String? = nil
    ) -> (access: String, refresh: String, expiresAt: Int) {
        let session = sessionID ?? state.next("s")
        if sessionID == nil {
            state.sessions[session] = GoTrueState.Session(id: session, userID: user.id, method: method)
        }
        let expires = now + expiresIn
        let aal = state.sessions[session]?.aal ?? "aal1"
        // GoTrue lists every method the session was proved by: a second factor's comes first once verified.
        let methods = (aal == "aal2" ? ["totp"] : []) + [method]
        let claims: [String: Any] = [
            "iss": "http://127.0.0.1/auth/v1", "sub": user.id, "aud": "authenticated", "exp": expires, "iat": now,
            "email": user.email, "role": "authenticated", "aal": aal, "session_id": session,
            "amr": methods.map { ["method": $0, "timestamp": now] }, "is_anonymous": false,
        ]
        let access = Self.jwt(claims: claims, nonce: state.next("n"))
        state.accessTokens[access] = GoTrueState.AccessToken(sessionID: session, expires: expires)
        let refresh = Self.base64url(Data(state.next("r").utf8))
        state.refreshTokens[refresh] = session
        return (access, refresh, expires)
    }

    /// An HS256-shaped JWT; the signature is random bytes (clients decode claims without verifying, A.1).
    static func jwt(claims: [String: Any], nonce: String) -> String {
        let header = base64url(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = base64url((try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data())
        return header + "." + payload + "." + base64url(Data(nonce.utf8))
    }

    static func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
