public import FoundationEssentials

/// The claims of a JWT, decoded without verifying its signature (the backend is the authority; linkd reads them to
/// tell a person whose link it is and when it expires).
public struct JWTClaims: Sendable, Hashable {
    public var expiresAt: Int64?
    public var issuedAt: Int64?
    public var subject: String?
    public var email: String?
    public var audience: [String]
    public var issuer: String?
    public var sessionID: String?
    /// The authentication methods (`amr`), e.g. `recovery`, `otp`, `password`.
    public var methods: [String]
    public var assuranceLevel: String?
    /// The `nonce` an OpenID provider copied from the sign-in's request (Sign in with Apple).
    public var nonce: String?

    /// Decodes the payload of `token`; `nil` when it is not three segments with a base64url JSON object in the middle.
    public init?(_ token: Secret) {
        let segments = token.revealed().split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = Self.base64URLDecode(segments[1]),
            let object = try? JSONValue.parse(payload), object.objectMembers != nil
        else { return nil }
        // `Int64(exactly:)` underneath: `exp: 1e300` is no expiry, not a trap.
        expiresAt = object["exp"]?.int64Value
        issuedAt = object["iat"]?.int64Value
        subject = object["sub"]?.stringValue
        email = object["email"]?.stringValue
        audience =
            object["aud"]?.stringValue.map { [$0] } ?? object["aud"]?.arrayElements?.compactMap(\.stringValue) ?? []
        issuer = object["iss"]?.stringValue
        sessionID = object["session_id"]?.stringValue
        methods = (object["amr"]?.arrayElements ?? []).compactMap { $0.stringValue ?? $0["method"]?.stringValue }
        assuranceLevel = object["aal"]?.stringValue
        nonce = object["nonce"]?.stringValue
    }

    /// Whether the token has expired at `now` (a token without `exp` has not).
    public func isExpired(at now: Date = Date()) -> Bool {
        guard let expiresAt else { return false }
        return Double(expiresAt) <= now.timeIntervalSince1970
    }

    /// The email with all but its first character hidden: `a***@example.com`.
    public var maskedEmail: String? { email.map(Self.mask) }

    /// Masks an email address as `a***@example.com`.
    public static func mask(_ email: String) -> String {
        guard let at = email.lastIndex(of: "@"), let first = email.first, at != email.startIndex else {
            return "***"
        }
        return String(first) + "***" + email[at...]
    }

    static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = String(text).replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
