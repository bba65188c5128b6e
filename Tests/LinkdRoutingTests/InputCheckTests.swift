import Testing

@testable import LinkdRouting

/// The parser's quick answers agree with the standard library's slow ones.
@Suite struct InputCheckTests {
    @Test func whiteSpaceIsUnicodesWhiteSpaceProperty() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(InputCheck.isWhitespace(scalar) == scalar.properties.isWhitespace, "U+\(String(value, radix: 16))")
        }
    }

    @Test func validatesUTF8AsTheStandardLibraryDoes() {
        var generator = SplitMix64(seed: 7)
        // Bytes drawn mostly from the edges where UTF-8 is strict: leads, continuation ranges, surrogates, F4 90.
        let interesting: [UInt8] = [
            0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
            0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        for _ in 0..<200_000 {
            let bytes = (0..<Int(generator.next() % 6 + 1)).map { _ in
                interesting[Int(generator.next() % UInt64(interesting.count))]
            }
            let encoded = bytes.flatMap { Array("%\(String($0, radix: 16, uppercase: true))".utf8) }
            #expect(
                PercentEncoding.decodesToUTF8(encoded) == (String(validating: bytes, as: UTF8.self) != nil),
                "\(bytes)"
            )
            let cleanQuickly = bytes.withUnsafeBufferPointer { InputCheck.isClean($0) }
            let clean = String(validating: bytes, as: UTF8.self).map { text in
                !text.unicodeScalars.contains { InputCheck.isWhitespace($0) || InputCheck.isControl($0) }
            }
            // Only links the scan let through get here, so ASCII controls are not the question; the rest agrees.
            if !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                #expect(cleanQuickly == (clean ?? false), "\(bytes)")
            }
        }
    }

    @Test(arguments: ["a%C3%A9", "%E2%82%AC+x", "%ED%A0%80", "%C3", "%F4%90%80%80", "100%25", "plain"])
    func knowsWhetherAParameterDecodesToUTF8(_ text: String) {
        let decoded = PercentEncoding.decode(Array(text.utf8), plusAsSpace: true)
        let quick = PercentEncoding.decodesToUTF8(Array(text.utf8))
        #expect(quick == (String(validating: decoded, as: UTF8.self) != nil))
    }
}
