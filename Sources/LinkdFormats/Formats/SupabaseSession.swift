import LinkdRouting

/// A Supabase implicit-flow redirect (`#access_token=…&refresh_token=…&type=recovery`): route
/// `supabase.recovery` when `type` is `recovery`, else `supabase.session`.
public struct SupabaseSession: Sendable, Hashable {
    public var accessToken: Secret
    public var refreshToken: Secret
    public var expiresIn: Int64?
    public var expiresAt: Int64?
    public var tokenType: String?
    public var type: String?
    public var providerToken: Secret?
    public var providerRefreshToken: Secret?

    /// Whether this is a password-recovery session.
    public var isRecovery: Bool { type == "recovery" }

    /// The access token's claims, decoded without verification (expiry is information, never a refusal).
    public var claims: JWTClaims? { JWTClaims(accessToken) }

    public var fields: RouteFields {
        var fields = RouteFields([("access_token", .secret(accessToken)), ("refresh_token", .secret(refreshToken))])
        fields.set("expires_in", expiresIn.map(FieldValue.number))
        fields.set("expires_at", expiresAt.map(FieldValue.number))
        fields.set("token_type", tokenType.map(FieldValue.text))
        fields.set("type", type.map(FieldValue.text))
        fields.set("provider_token", providerToken.map(FieldValue.secret))
        fields.set("provider_refresh_token", providerRefreshToken.map(FieldValue.secret))
        return fields
    }

    init(_ reader: FieldReader) throws(RouteError) {
        accessToken = try reader.secret("access_token")
        refreshToken = try reader.secret("refresh_token")
        expiresIn = try reader.number("expires_in")
        expiresAt = try reader.number("expires_at")
        tokenType = reader.optional("token_type")
        type = reader.optional("type")
        providerToken = try reader.secret("provider_token", required: false)
        providerRefreshToken = try reader.secret("provider_refresh_token", required: false)
    }
}

/// A Supabase PKCE redirect (`?code=<uuid>`): route `supabase.pkce`.
public struct SupabasePKCE: Sendable, Hashable {
    public var code: Secret
    /// Where the app goes next: kept only when it is a path starting with one `/`.
    public var next: String?

    public var fields: RouteFields {
        var fields = RouteFields([("code", .secret(code))])
        fields.set("next", next.map(FieldValue.text))
        return fields
    }

    init(_ reader: FieldReader) throws(RouteError) {
        code = try reader.secret("code")
        next = reader.nextPath()
    }
}

/// A Supabase token-hash link (`…/auth/confirm?token_hash=…&type=recovery`, or the hosted
/// `…/auth/v1/verify?token=…&type=…`): route `supabase.otp`.
public struct SupabaseOTP: Sendable, Hashable {
    /// The verification types GoTrue accepts.
    public static let types = ["signup", "invite", "magiclink", "recovery", "email_change", "email"]

    public var tokenHash: Secret
    public var type: String
    public var next: String?

    public var fields: RouteFields {
        var fields = RouteFields([("token_hash", .secret(tokenHash)), ("type", .text(type))])
        fields.set("next", next.map(FieldValue.text))
        return fields
    }

    init(_ reader: FieldReader, tokenName: String) throws(RouteError) {
        tokenHash = try reader.secret(tokenName)
        type = try reader.oneOf("type", Self.types)
        next = reader.nextPath()
    }
}
