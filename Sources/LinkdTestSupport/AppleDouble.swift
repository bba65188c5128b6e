package import Foundation
import LinkdSystem

/// A stand-in for Sign in with Apple's web flow, served over real HTTP on 127.0.0.1: `GET /auth/authorize` answers
/// with the self-submitting `form_post` page Apple shows once the person has signed in, carrying a single-use
/// `code`, an RS256 `id_token` for the client, the `state` as given, and `user` on the client's first sign-in;
/// `GET /auth/keys` serves its key as a JWKS.
///
/// Followed from Apple's REST API pages ("Request an authorization to the Sign in with Apple server", "Fetch
/// Apple's public key to verify token signatures"): `client_id` must be a registered Services ID (else `400
/// {"error":"invalid_client"}`), `redirect_uri` one of its Return URLs (else `400 {"error":"invalid_request"}`),
/// `response_type` `code` or `code id_token`, and `response_mode` `form_post` whenever a scope is asked for. The
/// `nonce` is copied verbatim into the token. Simpler than Apple: one person signs in at once (no page of its own),
/// Return URLs may be `http://127.0.0.1`, and the key is made with `openssl` when the stand-in starts.
package final class AppleDouble: Sendable {
    /// The issuer of Apple's id tokens.
    package static let issuer = "https://appleid.apple.com"

    private let server: TestHTTPServer
    private let service = Service()
    /// The signing key, as PEM files in a folder of its own.
    let keys: RSAKeyFiles

    /// The stand-in's state, shared with its server's connection threads.
    final class Service: Sendable {
        let state = Lock(State())
    }

    struct State {
        /// Services ID → its Return URLs.
        var clients: [String: [String]] = [:]
        /// The person who signs in: their `sub` and email.
        var person = (sub: "000123.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1234", email: "ada@example.com")
        /// Clients this person has authorized before (Apple sends `user` only the first time).
        var authorized: Set<String> = []
        /// Seconds an id token lives.
        var lifetime = 600
        var counter = 0
    }

    /// - Parameter folder: where the signing key's files go.
    package init(folder: URL) throws {
        keys = try RSAKeyFiles(folder: folder)
        server = try TestHTTPServer { [service, keys] request in
            service.state.withLock { Self.route(request, &$0, keys) }
        }
    }

    deinit { server.stop() }

    /// `http://127.0.0.1:<port>/auth/authorize`: an app's `authorizeUrl`.
    package var authorizeURL: String { server.baseURL + "/auth/authorize" }

    /// Every request received, as `METHOD target`.
    package var requestLines: [String] { server.requests.map { "\($0.method) \($0.target)" } }

    /// Registers a Services ID and its Return URLs.
    package func addClient(_ clientID: String, returnURLs: [String]) {
        service.state.withLock { $0.clients[clientID] = returnURLs }
    }

    /// Who signs in: Apple's stable `sub` for them and their email.
    package func signIn(as email: String, sub: String) {
        service.state.withLock { $0.person = (sub, email) }
    }

    /// An id token as this stand-in signs them, with claims of the caller's choosing (a test's forged or expired
    /// token).
    package func idToken(claims: [String: Any]) -> String {
        Self.sign(claims: claims, keys)
    }

    /// Whether `token` carries this stand-in's valid signature (what a backend checks against Apple's keys).
    package func hasValidSignature(_ token: String) -> Bool {
        Self.verify(token, keys)
    }

    private static func route(_ request: ReceivedRequest, _ state: inout State, _ keys: RSAKeyFiles) -> DoubleResponse {
        switch (request.method, request.path) {
        case ("GET", "/auth/keys"): return .json(200, ["keys": [keys.jwk]])
        case ("GET", "/auth/authorize"): return authorize(request.query, &state, keys)
        default: return .json(404, ["error": "not_found"])
        }
    }

    private static func authorize(
        _ query: [String: String],
        _ state: inout State,
        _ keys: RSAKeyFiles
    )
        -> DoubleResponse
    {
        guard let clientID = query["client_id"], let returnURLs = state.clients[clientID] else {
            return .json(400, ["error": "invalid_client"])
        }
        guard let redirect = query["redirect_uri"], returnURLs.contains(redirect),
            let responseType = query["response_type"], ["code", "code id_token"].contains(responseType)
        else {
            return .json(400, ["error": "invalid_request"])
        }
        let scope = query["scope"] ?? ""
        guard scope.isEmpty || query["response_mode"] == "form_post" else {
            return .json(400, ["error": "invalid_request", "error_description": "Invalid response mode"])
        }
        state.counter += 1
        let now = Int(Date().timeIntervalSince1970)
        let code = "c\(state.counter)." + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        var claims: [String: Any] = [
            "iss": issuer, "aud": clientID, "exp": now + state.lifetime, "iat": now, "sub": state.person.sub,
            "c_hash": "c\(state.counter)", "auth_time": now, "nonce_supported": true,
        ]
        if scope.contains("email") {
            claims["email"] = state.person.email
            claims["email_verified"] = true
            claims["is_private_email"] = false
        }
        if let nonce = query["nonce"] { claims["nonce"] = nonce }
        var fields = [("code", code), ("id_token", sign(claims: claims, keys))]
        if let given = query["state"] { fields.append(("state", given)) }
        if state.authorized.insert(clientID).inserted, !scope.isEmpty {
            fields.append(
                ("user", #"{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"\#(state.person.email)"}"#)
            )
        }
        return DoubleResponse(
            status: 200,
            headers: [("Content-Type", "text/html; charset=utf-8")],
            body: Data(formPage(action: redirect, fields: fields).utf8)
        )
    }

    /// The page that posts Apple's answer to the Return URL as soon as it loads.
    static func formPage(action: String, fields: [(String, String)]) -> String {
        let inputs = fields.map { #"<input type="hidden" name="\#(escape($0.0))" value="\#(escape($0.1))">"# }
        return """
            <!DOCTYPE html>
            <html><body onload="document.forms[0].submit()">
            <form method="post" action="\(escape(action))">
            \(inputs.joined(separator: "\n"))
            </form></body></html>
            """
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func sign(claims: [String: Any], _ keys: RSAKeyFiles) -> String {
        let header = GoTrueService.base64url(Data(#"{"alg":"RS256","kid":"\#(keys.keyID)"}"#.utf8))
        let payload = GoTrueService.base64url(
            (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data()
        )
        let signature = keys.sign(Data((header + "." + payload).utf8)) ?? Data()
        return header + "." + payload + "." + GoTrueService.base64url(signature)
    }

    static func verify(_ token: String, _ keys: RSAKeyFiles) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Data(base64URL: String(parts[2])) else { return false }
        return keys.verify(Data((parts[0] + "." + parts[1]).utf8), signature: signature)
    }

    /// The claims of an id token, decoded without verification; nil when it is not a JWT with a JSON object.
    static func claims(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Data(base64URL: String(parts[1])) else { return nil }
        return (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
    }

    /// The audiences of an id token's claims: its `aud`, a string or an array of them (RFC 7519 §4.1.3).
    static func audiences(of claims: [String: Any]) -> [String] {
        (claims["aud"] as? [String]) ?? [claims["aud"] as? String].compactMap { $0 }
    }
}

extension Data {
    /// Decodes unpadded base64url (a JWT's parts).
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
