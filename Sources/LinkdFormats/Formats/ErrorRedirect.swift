import LinkdRouting

/// A Supabase Auth error redirect (`#error=access_denied&error_code=otp_expired&error_description=…&sb=`):
/// route `supabase.error`.
public struct SupabaseError: Sendable, Hashable {
    public var error: String?
    /// The error code: a word such as `otp_expired`, or before December 2024 the HTTP status (`401`); kept as text.
    public var errorCode: String?
    public var errorDescription: String?

    /// Whether the backend says the link has expired or was already used.
    public var isExpiredLink: Bool {
        ["otp_expired", "flow_state_expired", "flow_state_not_found"].contains(errorCode ?? "")
            || (errorCode == "401" && error == "unauthorized_client")
    }

    public var fields: RouteFields {
        RouteFields(
            [("error", error), ("error_code", errorCode), ("error_description", errorDescription)].compactMap { pair in
                pair.1.map { (pair.0, FieldValue.text($0)) }
            }
        )
    }

    init(_ reader: FieldReader) {
        error = reader.optional("error")
        errorCode = reader.optional("error_code")
        errorDescription = reader.optional("error_description")
    }
}

/// An OAuth 2.0 error redirect (RFC 6749 §4.1.2.1, `?error=access_denied&state=…`): route `oauth.error`.
public struct OAuthError: Sendable, Hashable {
    public var error: String
    public var errorDescription: String?
    public var errorURI: String?
    public var state: String?

    public var fields: RouteFields {
        var fields = RouteFields([("error", .text(error))])
        fields.set("error_description", errorDescription.map(FieldValue.text))
        fields.set("error_uri", errorURI.map(FieldValue.text))
        fields.set("state", state.map(FieldValue.text))
        return fields
    }

    init(_ reader: FieldReader) throws(RouteError) {
        error = try reader.required("error")
        errorDescription = reader.optional("error_description")
        errorURI = reader.optional("error_uri")
        state = reader.optional("state")
    }
}
