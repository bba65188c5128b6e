package import LinkdFormats

/// A GoTrue session (AccessTokenResponse, contract A.1): its tokens stay `Secret`s.
package struct GoTrueSession: Sendable {
    package var accessToken: Secret
    package var refreshToken: Secret
    /// Unix seconds.
    package var expiresAt: Int64
    /// `bearer`, as GoTrue says it.
    package var tokenType: String
    package var user: GoTrueUser

    /// A session of known parts (the tokens of an implicit-flow link, and the user `GET /user` returned for them).
    package init(accessToken: Secret, refreshToken: Secret, expiresAt: Int64, tokenType: String, user: GoTrueUser) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.tokenType = tokenType
        self.user = user
    }

    /// Reads a session from GoTrue's answer.
    ///
    /// - Throws: ``SessionError/badResponse(_:)`` when a token or the user (or its id) is missing.
    package init(_ object: JSONValue) throws(SessionError) {
        guard let access = object["access_token"]?.stringValue, let refresh = object["refresh_token"]?.stringValue,
            let userObject = object["user"]
        else { throw .badResponse("a session without access_token, refresh_token and user") }
        accessToken = Secret(access)
        refreshToken = Secret(refresh)
        expiresAt = object["expires_at"]?.int64Value ?? 0
        tokenType = object["token_type"]?.stringValue ?? "bearer"
        user = try GoTrueUser(userObject)
    }
}

/// The parts of a GoTrue user linkd shows or hands on: id, email and provider, and the second factors a reset proves.
package struct GoTrueUser: Sendable, Equatable {
    package var id: String
    package var email: String
    /// How the user signed up (`email`, `github`, `apple` …): `app_metadata.provider`; `email` when it is not said.
    package var provider: String
    /// The user's verified MFA factors (`factors`).
    package var factors: SecondFactors

    /// Reads a user from GoTrue's answer.
    ///
    /// - Throws: ``SessionError/badResponse(_:)`` when it has no id.
    package init(_ object: JSONValue) throws(SessionError) {
        guard let id = object["id"]?.stringValue else { throw .badResponse("a user without an id") }
        self.id = id
        email = object["email"]?.stringValue ?? ""
        provider = object["app_metadata"]?["provider"]?.stringValue ?? "email"
        factors = SecondFactors(object["factors"])
    }
}
