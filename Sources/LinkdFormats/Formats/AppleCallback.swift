import LinkdRouting

/// A Sign in with Apple callback (`?code=…&id_token=…&state=…&user=…`): route `apple.callback`.
public struct AppleCallback: Sendable, Hashable {
    public var code: Secret?
    public var idToken: Secret?
    public var state: String?
    /// The JSON Apple sends on the first authorization only (`{"name":{…},"email":…}`), as text.
    public var user: String?

    public var fields: RouteFields {
        var fields = RouteFields()
        fields.set("code", code.map(FieldValue.secret))
        fields.set("id_token", idToken.map(FieldValue.secret))
        fields.set("state", state.map(FieldValue.text))
        fields.set("user", user.map(FieldValue.text))
        return fields
    }

    /// The id token's claims, decoded without verification.
    public var claims: JWTClaims? { idToken.flatMap(JWTClaims.init) }

    /// The person's name from ``user`` (Apple sends it once, at the first authorization, and never again); `nil` when
    /// the link carries none, or `user` is not the JSON Apple sends.
    public var name: PersonName? {
        guard let user, let object = try? JSONValue.parse(Array(user.utf8)), let name = object["name"] else {
            return nil
        }
        let given = PersonName(firstName: name["firstName"]?.stringValue, lastName: name["lastName"]?.stringValue)
        return given.firstName == nil && given.lastName == nil ? nil : given
    }

    init(_ reader: FieldReader) throws(RouteError) {
        code = try reader.secret("code", required: false)
        idToken = try reader.secret("id_token", required: false)
        state = reader.optional("state")
        user = reader.optional("user")
    }
}

/// An OAuth 2.0 authorization-code callback (`?code=…&state=…`): route `oauth.callback`.
public struct OAuthCallback: Sendable, Hashable {
    public var code: Secret
    public var state: String

    public var fields: RouteFields { RouteFields([("code", .secret(code)), ("state", .text(state))]) }

    init(_ reader: FieldReader) throws(RouteError) {
        code = try reader.secret("code")
        state = try reader.required("state")
    }
}
