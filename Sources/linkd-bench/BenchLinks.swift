/// Realistic reset links: what Supabase, App Services and PKCE flows put in the email or the redirect.
enum BenchLinks {
    /// A base64url run of `count` characters, deterministic.
    static func base64url(_ count: Int, seed: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        return String(
            (0..<count).map { _ in
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return alphabet[Int(state % 64)]
            }
        )
    }

    static func hex(_ count: Int, seed: Int) -> String {
        String(base64url(count, seed: seed).unicodeScalars.map { "0123456789abcdef".randomElementStable($0.value) })
    }

    /// A ~900-byte access token: header, payload and signature segments.
    static let jwt = base64url(36, seed: 1) + "." + base64url(780, seed: 2) + "." + base64url(86, seed: 3)

    static let all: [String] = [
        "com.example.notes://reset#access_token=\(jwt)&expires_at=1767225600&expires_in=3600"
            + "&refresh_token=\(base64url(56, seed: 4))&sb=&token_type=bearer&type=recovery",
        "https://notes.example.com/reset?token=\(hex(128, seed: 5))&tokenId=\(hex(24, seed: 6))",
        "com.example.notes://reset?code=3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
        "https://notes.example.com/auth/confirm?token_hash=pkce_\(hex(56, seed: 7))&type=recovery&next=/account",
        "http://localhost:3000/#/#access_token=\(jwt)&expires_in=3600&refresh_token=\(base64url(12, seed: 8))"
            + "&token_type=bearer&type=recovery",
        "com.example.notes://reset#error=access_denied&error_code=otp_expired"
            + "&error_description=Email+link+is+invalid+or+has+expired&sb=",
    ]
}

extension String {
    fileprivate func randomElementStable(_ value: UInt32) -> Character {
        let characters = Array(self)
        return characters[Int(value) % characters.count]
    }
}
