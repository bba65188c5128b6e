import Foundation
import LinkdFormats
import LinkdTesting
import Testing

@Suite struct JWTClaimsTests {
    @Test func decodesTheClaimsWithoutVerifying() throws {
        let token = LinkFixtures.jwt(
            subject: "8ccaa7af-909f-44e7-84cb-67cdccb56be6",
            email: "alice@example.com",
            expiresAt: Date(timeIntervalSince1970: 1_767_225_600),
            issuedAt: Date(timeIntervalSince1970: 1_767_222_000),
            sessionID: "s-1",
            methods: ["recovery"]
        )
        let claims = try #require(JWTClaims(Secret(token)))
        #expect(claims.expiresAt == 1_767_225_600)
        #expect(claims.issuedAt == 1_767_222_000)
        #expect(claims.subject == "8ccaa7af-909f-44e7-84cb-67cdccb56be6")
        #expect(claims.email == "alice@example.com")
        #expect(claims.maskedEmail == "a***@example.com")
        #expect(claims.audience == ["authenticated"])
        #expect(claims.sessionID == "s-1")
        #expect(claims.methods == ["recovery"])
        #expect(claims.assuranceLevel == "aal1")
        #expect(claims.isExpired(at: Date(timeIntervalSince1970: 1_767_225_600)))
        #expect(!claims.isExpired(at: Date(timeIntervalSince1970: 1_767_225_599)))
    }

    private func token(payload: String) -> Secret {
        let encoded = Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return Secret("eyJhbGciOiJIUzI1NiJ9.\(encoded).sig")
    }

    @Test func readsOddButValidClaimsWithoutTrapping() throws {
        let claims = try #require(JWTClaims(token(payload: #"{"exp":1e300,"iat":1.5,"aud":["a","b"],"amr":["otp"]}"#)))
        #expect(claims.expiresAt == nil)
        #expect(claims.issuedAt == nil)
        #expect(claims.audience == ["a", "b"])
        #expect(claims.methods == ["otp"])
        #expect(!claims.isExpired())
    }

    @Test func givesNothingForAPayloadThatIsNotJSON() {
        #expect(JWTClaims(Secret("a.b.c")) == nil)
        #expect(JWTClaims(token(payload: "[1,2]")) == nil)
    }

    @Test(arguments: [
        ("alice@example.com", "a***@example.com"), ("b@x.org", "b***@x.org"), ("nobody", "***"), ("@x", "***"),
    ])
    func masksEmails(_ email: String, _ masked: String) {
        #expect(JWTClaims.mask(email) == masked)
    }
}
