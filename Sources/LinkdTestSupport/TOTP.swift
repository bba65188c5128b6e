/// Time-based one-time passwords (RFC 6238) with HMAC-SHA1, 30-second steps: what an authenticator app shows for a
/// factor's secret, and what GoTrue's MFA checks a code against (`totp.ValidateCustom`, period 30, skew 1, 6 digits,
/// SHA1).
package struct TOTP: Sendable {
    /// The shared secret (GoTrue keeps it; the authenticator app has it from the enrolment's QR code).
    package let secret: [UInt8]
    package let digits: Int
    package let period: Int

    package init(secret: [UInt8], digits: Int = 6, period: Int = 30) {
        self.secret = secret
        self.digits = digits
        self.period = period
    }

    /// The code for the step that holds `unixTime`, with its leading zeros.
    package func code(at unixTime: Int) -> String {
        var counter = UInt64(unixTime / period).bigEndian
        let message = withUnsafeBytes(of: &counter) { Array($0) }
        let mac = HMACSHA1.authenticate(message, key: secret)
        let offset = Int(mac[19] & 0x0F)
        let binary =
            (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(binary % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// Whether `code` is the code of the step of `unixTime` or of one step either side of it (GoTrue's skew of 1).
    package func accepts(_ code: String, at unixTime: Int) -> Bool {
        [-period, 0, period].contains { self.code(at: unixTime + $0) == code }
    }
}

/// HMAC (RFC 2104) over SHA-1 (FIPS 180-4), for ``TOTP`` alone: nothing in linkd itself uses SHA-1.
enum HMACSHA1 {
    static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? digest(key) : key
        block += Array(repeating: 0, count: 64 - block.count)
        let inner = digest(block.map { $0 ^ 0x36 } + message)
        return digest(block.map { $0 ^ 0x5C } + inner)
    }

    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message + [0x80]
        padded += Array(repeating: 0, count: (56 - padded.count % 64 + 64) % 64)
        let bits = UInt64(message.count) * 8
        padded += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            var w = (0..<16).map { index -> UInt32 in
                let at = chunk + index * 4
                return UInt32(padded[at]) << 24 | UInt32(padded[at + 1]) << 16 | UInt32(padded[at + 2]) << 8
                    | UInt32(padded[at + 3])
            }
            for index in 16..<80 {
                let mixed = w[index - 3] ^ w[index - 8] ^ w[index - 14] ^ w[index - 16]
                w.append(mixed << 1 | mixed >> 31)
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for index in 0..<80 {
                let (f, k): (UInt32, UInt32) =
                    switch index {
                    case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                    case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                    case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                    default: (b ^ c ^ d, 0xCA62_C1D6)
                    }
                let next = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[index]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, next)
            }
            h[0] &+= a
            h[1] &+= b
            h[2] &+= c
            h[3] &+= d
            h[4] &+= e
        }
        return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }
}
