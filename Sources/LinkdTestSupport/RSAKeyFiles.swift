import Foundation

/// An RSA key for RS256 signatures, made and used with the `openssl` command (the toolchain has no RSA of its own):
/// the stand-ins of identity providers sign with it, and the backend doubles check their signatures.
struct RSAKeyFiles: Sendable {
    let privateKey: String
    let publicKey: String
    /// The key's id (`kid`), random.
    let keyID: String
    /// The modulus, big-endian, as `openssl rsa -modulus` prints it.
    private let modulus: Data

    init(folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        privateKey = folder.appendingPathComponent("signing-key.pem").path
        publicKey = folder.appendingPathComponent("signing-key.pub.pem").path
        keyID = String(UUID().uuidString.prefix(8))
        guard
            Self.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", privateKey])
                != nil,
            Self.openssl(["pkey", "-in", privateKey, "-pubout", "-out", publicKey]) != nil,
            let printed = Self.openssl(["rsa", "-in", privateKey, "-noout", "-modulus"]),
            let hex = String(decoding: printed, as: UTF8.self).split(separator: "=").last
        else {
            throw HarnessError.failed(program: "openssl genpkey (an RSA key in \(folder.path))", status: 1)
        }
        var bytes = Data()
        var digits = hex.trimmingCharacters(in: .whitespacesAndNewlines)[...]
        while digits.count >= 2, let byte = UInt8(digits.prefix(2), radix: 16) {
            bytes.append(byte)
            digits = digits.dropFirst(2)
        }
        modulus = bytes
    }

    /// The public key as a JWK, as Apple's `/auth/keys` lists its keys.
    var jwk: [String: String] {
        ["kty": "RSA", "kid": keyID, "use": "sig", "alg": "RS256", "n": GoTrueService.base64url(modulus), "e": "AQAB"]
    }

    /// The RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signature of `data`.
    func sign(_ data: Data) -> Data? {
        Self.openssl(["dgst", "-sha256", "-sign", privateKey], input: data)
    }

    /// Whether `signature` is this key's RS256 signature of `data`.
    func verify(_ data: Data, signature: Data) -> Bool {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sig-" + UUID().uuidString)
        guard (try? signature.write(to: file)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: file) }
        return Self.openssl(["dgst", "-sha256", "-verify", publicKey, "-signature", file.path], input: data) != nil
    }

    private static func openssl(_ arguments: [String], input: Data = Data()) -> Data? {
        OpenSSLCommand.run(arguments, input: input)
    }
}
