import LinkdFormats

/// PKCE (RFC 7636) with the S256 method, as GoTrue's `/recover` takes it.
package enum PKCE {
    /// A new verifier: 32 random bytes, base64url without padding (43 characters).
    package static func makeVerifier() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// `BASE64URL(SHA256(verifier))`.
    package static func challenge(for verifier: String) -> String {
        base64URL(SHA256.hash(Array(verifier.utf8)))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - offset * 8) }
            for position in 0...chunk.count { output.append(alphabet[(value >> (18 - position * 6)) & 63]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
