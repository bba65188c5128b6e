import LinkdTestSupport
import Testing

/// The doubles' TOTP against RFC 6238's own test vectors (Appendix B, SHA-1, the secret "12345678901234567890").
@Suite struct TOTPTests {
    @Test(arguments: [
        (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
        (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ])
    func theRFCsVectors(time: Int, expected: String) {
        let totp = TOTP(secret: Array("12345678901234567890".utf8), digits: 8)
        #expect(totp.code(at: time) == expected)
        #expect(TOTP(secret: Array("12345678901234567890".utf8)).code(at: time) == String(expected.suffix(6)))
    }

    @Test func aCodeIsAcceptedOneStepEitherSideAndNoFurther() {
        let totp = TOTP(secret: Array("12345678901234567890".utf8))
        let code = totp.code(at: 1_111_111_111)
        #expect(totp.accepts(code, at: 1_111_111_111 + 30) && totp.accepts(code, at: 1_111_111_111 - 30))
        #expect(!totp.accepts(code, at: 1_111_111_111 + 90))
    }
}
