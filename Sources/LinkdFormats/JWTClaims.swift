public import Foundation

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

    /// Decodes the payload of `token`; `nil` when it is not three segments with a base64url JSON object in the middle.
    public init?(_ token: Secret) {
        let segments = token.revealed().split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = Self.base64URLDecode(segments[1]),
            let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { return nil }
        expiresAt = Self.integer(object["exp"])
        issuedAt = Self.integer(object["iat"])
        subject = object["sub"] as? String
        email = object["email"] as? String
        audience =
            (object["aud"] as? String).map { [$0] } ?? (object["aud"] as? [Any])?.compactMap { $0 as? String } ?? []
        issuer = object["iss"] as? String
        sessionID = object["session_id"] as? String
        methods = ((object["amr"] as? [Any]) ?? []).compactMap { entry in
            (entry as? String) ?? ((entry as? [String: Any])?["method"] as? String)
        }
        assuranceLevel = object["aal"] as? String
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

    /// A JSON number that is a whole number within `Int64`, read without trapping (`1e300` is not one).
    private static func integer(_ value: Any?) -> Int64? {
        guard let number = value as? NSNumber, !(value is Bool) else { return nil }
        let double = number.doubleValue
        guard double.rounded() == double, let integer = Int64(exactly: double) else { return nil }
        return integer
    }

    static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
