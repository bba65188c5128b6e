/// The parameter names linkd treats as secrets, and the shapes their values must have.
public enum SecretShape {
    /// Parameter names whose values are secrets.
    public static let names: Set<String> = [
        "access_token", "refresh_token", "provider_token", "provider_refresh_token", "token", "tokenId", "token_hash",
        "code", "oobCode", "id_token", "apiKey",
    ]
    /// Secrets that are JWTs: three base64url segments.
    public static let jwtNames: Set<String> = ["access_token", "id_token"]
    /// The longest plain secret, in bytes.
    public static let maximumLength = 4_096
    /// The longest JWT, in bytes.
    public static let maximumJWTLength = 8_192

    /// Whether `name` is a secret's name.
    public static func isSecret(_ name: String) -> Bool { names.contains(name) }

    /// Whether `value` has the shape a secret called `name` must have: 1–4,096 bytes of `A–Z a–z 0–9 - . _ ~`,
    /// or for an access or id token three non-empty base64url segments of at most 8,192 bytes.
    public static func isWellFormed(_ value: String, name: String) -> Bool {
        let bytes = value.utf8
        if jwtNames.contains(name) {
            guard bytes.count <= maximumJWTLength else { return false }
            let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            return segments.count == 3 && segments.allSatisfy { !$0.isEmpty && $0.allSatisfy(isBase64URL) }
        }
        return !bytes.isEmpty && bytes.count <= maximumLength && bytes.allSatisfy(isUnreserved)
    }

    static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        isBase64URL(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
    }
}
