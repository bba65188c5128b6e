import LinkdSession
import Testing

/// SHA-256 and the S256 challenge against published vectors.
@Suite struct PKCETests {
    @Test func theChallengeOfRFC7636AppendixB() {
        #expect(
            PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        )
    }

    @Test func verifiersAreFortyThreeUnreservedCharactersAndDiffer() {
        let first = PKCE.makeVerifier()
        #expect(first.count == 43 && first.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || (0x30...0x7A).contains($0) })
        #expect(first != PKCE.makeVerifier())
    }
}
