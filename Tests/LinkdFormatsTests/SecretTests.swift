import Foundation
import LinkdFormats
import Testing

@Suite struct SecretTests {
    static let canary = "canary-7f3a9c"

    @Test func redactsInEveryWayAValueIsPrinted() throws {
        let secret = Secret(Self.canary)
        #expect(secret.description == "<redacted>")
        #expect("\(secret)" == "<redacted>")
        #expect(String(describing: secret) == "<redacted>")
        #expect(String(reflecting: secret) == "Secret(<redacted>)")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains(Self.canary))
        let encoded = try JSONEncoder().encode(["token": secret])
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"token":"<redacted>"}"#)
        #expect(secret.revealed() == Self.canary)
    }

    @Test func redactsInsideRoutesAndTheirFields() throws {
        let route = try AuthLinks.route("https://h.example/reset?token=\(Self.canary)&tokenId=\(Self.canary)x")
        var dumped = ""
        dump(route, to: &dumped)
        #expect(!dumped.contains(Self.canary))
        #expect(!"\(route)".contains(Self.canary))
        #expect(!String(reflecting: route.fields).contains(Self.canary))
    }

    @Test(arguments: [
        ("access_token", "a.b.c", true), ("access_token", "a.b", false), ("access_token", "a..c", false),
        ("access_token", "a.b.c+", false), ("id_token", "x.y.z", true), ("code", "3f1b2c4d-5e6f", true),
        ("code", "", false), ("token", "a b", false), ("token_hash", "pkce_abc~.", true), ("apiKey", "AIza/", false),
    ])
    func checksShapes(_ name: String, _ value: String, _ isWellFormed: Bool) {
        #expect(SecretShape.isWellFormed(value, name: name) == isWellFormed)
    }

    @Test func limitsLengths() {
        #expect(SecretShape.isWellFormed(String(repeating: "a", count: 4_096), name: "code"))
        #expect(!SecretShape.isWellFormed(String(repeating: "a", count: 4_097), name: "code"))
        let jwt = "a." + String(repeating: "b", count: 8_186) + ".c"
        #expect(jwt.utf8.count == 8_190 && SecretShape.isWellFormed(jwt, name: "access_token"))
        #expect(!SecretShape.isWellFormed(jwt + "ccc", name: "access_token"))
    }
}
