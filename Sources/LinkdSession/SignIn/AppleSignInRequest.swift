package import LinkdFormats
import LinkdRouting

/// Sign in with Apple's web flow as linkd starts it: one random secret per sign-in, kept like a PKCE verifier (0600,
/// ten minutes, used up only by the sign-in that succeeds), from which both values Apple is given come — the `state`
/// is the secret's SHA-256 in base64url, the `nonce` the same hash in lower-case hex (GoTrue checks the id token's
/// `nonce` claim against the hex SHA-256 of the raw nonce, the secret itself, sent with the id-token grant).
package enum AppleSignInRequest {
    /// The `state` that a callback of the sign-in started with `secret` carries.
    package static func state(for secret: String) -> String {
        PKCE.challenge(for: secret)
    }

    /// The `nonce` Apple copies into the id token: the lower-case hex SHA-256 of `secret`.
    package static func nonce(for secret: String) -> String {
        Hex.lowercase(SHA256.hash(Array(secret.utf8)))
    }

    /// Where Apple is asked, for whom, and where its answer goes.
    package struct Client: Sendable {
        /// Apple's authorization page.
        package var authorizeURL: String
        /// The app's Services ID.
        package var clientID: String
        /// Its Return URL: the app's page that receives Apple's `form_post`.
        package var redirectURI: String
        /// What Apple is asked to share at the first sign-in (`name`, `email`); none leaves `scope` out.
        package var scope: [String]

        package init(authorizeURL: String, clientID: String, redirectURI: String, scope: [String] = ["name", "email"]) {
            self.authorizeURL = authorizeURL
            self.clientID = clientID
            self.redirectURI = redirectURI
            self.scope = scope
        }
    }

    /// The address the browser opens: Apple's authorization page for `apple`'s Services ID, answering by `form_post`
    /// to its Return URL with a code, an id token, the state, and what the scope asks for (the person's name, email)
    /// on their first sign-in.
    package static func authorizeURL(_ apple: Client, secret: String) -> String {
        var parameters = [
            ("client_id", apple.clientID), ("redirect_uri", apple.redirectURI), ("response_type", "code id_token"),
            ("response_mode", "form_post"),
        ]
        if !apple.scope.isEmpty { parameters.append(("scope", apple.scope.joined(separator: " "))) }
        parameters += [("state", state(for: secret)), ("nonce", nonce(for: secret))]
        let query = parameters.map { $0.0 + "=" + PercentEncoding.encodeComponent($0.1) }.joined(separator: "&")
        return apple.authorizeURL + (apple.authorizeURL.contains("?") ? "&" : "?") + query
    }

    /// Stores a new secret for `app`'s Sign in with Apple, replacing an earlier one; the address to open, and the
    /// secret (the caller forgets it again when the sign-in is abandoned).
    ///
    /// - Throws: ``SignInFailureKind/stateUnwritable`` when the secret cannot be stored.
    package static func start(
        _ apple: Client,
        store: PKCEStore,
        app: String,
        now: Int64
    ) throws(SignInFailure) -> (address: String, secret: Secret) {
        let secret = PKCE.makeVerifier()
        do {
            try store.store(Secret(secret), app: app, now: now, inBrowser: true)
        } catch {
            throw SignInFailure(error)
        }
        return (authorizeURL(apple, secret: secret), Secret(secret))
    }
}
