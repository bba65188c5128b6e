package import LinkdFormats

/// An App Services session: the tokens of a login (`{"access_token", "refresh_token", "user_id", "device_id"}`,
/// both tokens JWTs with an `exp` and an `iat`, as realm-core requires) and the email its profile names. The tokens
/// stay `Secret`s.
package struct AppServicesSession: Sendable {
    package var accessToken: Secret
    package var refreshToken: Secret
    package var userID: String
    package var deviceID: String
    /// The access token's `exp`, in Unix seconds.
    package var expiresAt: Int64
    /// The identity's provider type (`oauth2-apple`).
    package var provider: String
    /// The email of the user's profile (`data.email`); empty when it names none.
    package var email: String

    /// Reads the session a login answered (the JSON object of its body, ``AppServicesClient/object(_:)``), for
    /// `provider`; the email comes later, from the profile.
    ///
    /// - Throws: ``SessionError/badResponse(_:)`` when a key is missing or a token is no JWT with `exp` and `iat`.
    package init(login object: JSONValue, provider: String) throws(SessionError) {
        guard let access = object["access_token"]?.stringValue, let refresh = object["refresh_token"]?.stringValue,
            let userID = object["user_id"]?.stringValue, let deviceID = object["device_id"]?.stringValue
        else { throw .badResponse("a login without access_token, refresh_token, user_id and device_id") }
        accessToken = Secret(access)
        refreshToken = Secret(refresh)
        let claims = [accessToken, refreshToken].map { JWTClaims($0) }
        guard let expiresAt = claims[0]?.expiresAt, claims.allSatisfy({ $0?.expiresAt != nil && $0?.issuedAt != nil })
        else { throw .badResponse("a login whose tokens are no JWTs with exp and iat (malformed JWT)") }
        self.expiresAt = expiresAt
        self.userID = userID
        self.deviceID = deviceID
        self.provider = provider
        email = ""
    }

    /// What an app gets for a sign-in, as one JSON object and a newline: `{"id", "app", "route", "session":
    /// {"access_token", "refresh_token", "expires_at", "token_type", "provider", "user": {"id", "email"}},
    /// "backend": "appservices"}`, with the real token values (the app acts on them) — the shape a Supabase session
    /// has, so an app reads both alike.
    ///
    /// - Parameters:
    ///   - id: the link's spool id, by which the app can recognise a repeat.
    ///   - app: the app's id.
    ///   - route: the id of the link's route (`apple.callback`).
    package func delivery(id: String, app: String, route: String, name: PersonName? = nil) -> [UInt8] {
        var user: [(String, JSONValue)] = [("id", .string(userID)), ("email", .string(email))]
        if let name { user.append(("name", name.json)) }
        let session = JSONValue.object([
            ("access_token", .string(accessToken.revealed())), ("refresh_token", .string(refreshToken.revealed())),
            ("expires_at", .number(expiresAt)), ("token_type", .string("bearer")), ("provider", .string(provider)),
            ("user", .object(user)),
        ])
        let object = JSONValue.object([
            ("id", .string(id)), ("app", .string(app)), ("route", .string(route)), ("session", session),
            ("backend", .string("appservices")),
        ])
        return Array((object.serialized + "\n").utf8)
    }

    /// The session's secret values, for a redactor: its tokens.
    package var secretValues: [String] { [accessToken.revealed(), refreshToken.revealed()] }
}
