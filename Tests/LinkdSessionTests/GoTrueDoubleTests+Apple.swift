import Foundation
import LinkdSession
import LinkdTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Apple stand-in and the GoTrue double's `grant_type=id_token`, held to backend-contract.md §A.13 and §E.
extension GoTrueDoubleTests {
    static let clientID = "com.example.notes.web"
    static let returnURL = "https://notes.example.com/apple"

    /// The stand-in's answer to an authorization request, with `query` added to a valid one.
    private func authorize(_ apple: AppleDouble, _ query: String) async throws -> (status: Int, body: String) {
        let response = try await CurlTransport().send(HTTPRequest(method: "GET", url: apple.authorizeURL + "?" + query))
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// The hidden fields of Apple's `form_post` page.
    static func formFields(_ page: String) -> [String: String] {
        var fields: [String: String] = [:]
        for input in page.split(separator: "<input").dropFirst() {
            let name = input.firstRange(of: #"name=""#).map { input[$0.upperBound...].prefix { $0 != "\"" } }
            let value = input.firstRange(of: #"value=""#).map { input[$0.upperBound...].prefix { $0 != "\"" } }
            guard let name, let value else { continue }
            fields[String(name)] = String(value).replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        return fields
    }

    private static func claims(_ token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".")
        try #require(parts.count == 3)
        let payload = try #require(Data(base64Encoded: padded(String(parts[1]))))
        return try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
    }

    private static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("linkd-apple-" + UUID().uuidString)
    }

    @Test func theAppleStandInPostsASignedTokenWithTheNonceAndRefusesWhatAppleRefuses() async throws {
        let apple = try AppleDouble(folder: Self.folder())
        apple.addClient(Self.clientID, returnURLs: [Self.returnURL])
        let redirect = Self.returnURL.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let valid =
            "client_id=\(Self.clientID)&redirect_uri=\(redirect)&response_type=code%20id_token"
            + "&response_mode=form_post&scope=name%20email&state=s-1&nonce=abc123"
        let page = try await authorize(apple, valid)
        #expect(page.status == 200)
        #expect(page.body.contains(#"action="https://notes.example.com/apple""#))
        let fields = Self.formFields(page.body)
        #expect(fields["state"] == "s-1")
        #expect(fields["code"]?.isEmpty == false)
        #expect(fields["user"]?.contains(#""email":"ada@example.com""#) == true)
        let token = try #require(fields["id_token"])
        #expect(apple.hasValidSignature(token))
        #expect(!apple.hasValidSignature(token.dropLast(4) + "AAAA"))
        let claims = try Self.claims(token)
        #expect(claims["iss"] as? String == "https://appleid.apple.com")
        #expect(claims["aud"] as? String == Self.clientID && claims["nonce"] as? String == "abc123")
        #expect(claims["email"] as? String == "ada@example.com" && claims["email_verified"] as? Bool == true)
        // `user` comes on the first authorization only.
        #expect(Self.formFields(try await authorize(apple, valid).body)["user"] == nil)

        let unknownClient = try await authorize(apple, valid.replacingOccurrences(of: "notes.web", with: "other"))
        #expect(unknownClient.status == 400 && unknownClient.body.contains("invalid_client"))
        let unregistered = try await authorize(apple, valid.replacingOccurrences(of: "%2Fapple", with: "%2Fx"))
        #expect(unregistered.status == 400 && unregistered.body.contains("invalid_request"))
        let query = try await authorize(apple, valid.replacingOccurrences(of: "form_post", with: "query"))
        #expect(query.status == 400 && query.body.contains("Invalid response mode"))
    }

    @Test func theIDTokenGrantChecksSignatureAudienceAndNonceAndSignsAppleUsersIn() async throws {
        let double = try GoTrueDouble()
        let apple = try AppleDouble(folder: Self.folder())
        let now = Int(Date().timeIntervalSince1970)
        let nonce = "raw-nonce-1"
        // printf raw-nonce-1 | openssl dgst -sha256
        let hashed = "bef53b3c45cc1de4b7ef424e18831896dc04065c79b42250431fa69cd123e1e3"
        var claims: [String: Any] = [
            "iss": AppleDouble.issuer, "aud": Self.clientID, "exp": now + 600, "iat": now, "sub": "000123.abc.1234",
            "nonce": hashed, "email": "ada@example.com", "email_verified": true,
        ]
        let good = apple.idToken(claims: claims)
        func grant(_ token: String, nonce: String?) async throws -> Reply {
            var body: [String: Any] = ["provider": "apple", "id_token": token]
            body["nonce"] = nonce
            return try await call(double, "POST", "/token?grant_type=id_token", body: body)
        }
        let disabled = try await grant(good, nonce: nonce)
        #expect(disabled.status == 400 && disabled.json["code"] as? String == "provider_disabled")

        double.enableApple(clientIDs: [Self.clientID], keysOf: apple)
        let forged = try AppleDouble(folder: Self.folder()).idToken(claims: claims)
        #expect(try await grant(forged, nonce: nonce).json["error_description"] as? String == "Bad ID token")
        var expired = claims
        expired["exp"] = now - 1
        #expect(
            try await grant(apple.idToken(claims: expired), nonce: nonce).json["error_description"] as? String
                == "Bad ID token"
        )
        var foreign = claims
        foreign["aud"] = "com.example.other"
        #expect(
            try await grant(apple.idToken(claims: foreign), nonce: nonce).json["error_description"] as? String
                == "Unacceptable audience in id_token"
        )
        let mismatch = try await grant(good, nonce: "another-nonce")
        #expect(mismatch.status == 400 && mismatch.json["error"] as? String == "invalid nonce")
        let withoutNonce = try await grant(good, nonce: nil)
        #expect(
            withoutNonce.json["error_description"] as? String
                == "Passed nonce and nonce in id_token should either both exist or not."
        )
        #expect(decoded(mismatch).kind == .refused)

        // A new Apple user, then the same identity again: one user, provider apple, amr oauth.
        let first = try await grant(good, nonce: nonce)
        #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
        let user = try #require(first.json["user"] as? [String: Any])
        #expect((user["app_metadata"] as? [String: Any])?["provider"] as? String == "apple")
        let access = try #require(first.json["access_token"] as? String)
        let amr = try #require(try Self.claims(access)["amr"] as? [[String: Any]])
        #expect(amr.first?["method"] as? String == "oauth")
        claims["email"] = "changed@example.com"
        let again = try await grant(apple.idToken(claims: claims), nonce: nonce)
        #expect((again.json["user"] as? [String: Any])?["id"] as? String == user["id"] as? String)
        #expect(double.appleUserEmail(sub: "000123.abc.1234") == "ada@example.com")
    }

    @Test func anAppleTokenWithAVerifiedEmailSignsInTheAccountOfThatEmail() async throws {
        let double = try GoTrueDouble()
        let apple = try AppleDouble(folder: Self.folder())
        double.enableApple(clientIDs: [Self.clientID], keysOf: apple)
        let id = double.addUser(email: "grace@example.com", password: "secret1")
        let now = Int(Date().timeIntervalSince1970)
        let token = apple.idToken(claims: [
            "iss": AppleDouble.issuer, "aud": [Self.clientID], "exp": now + 600, "iat": now, "sub": "000999.x.1",
            "email": "grace@example.com", "email_verified": "true",
        ])
        let reply = try await call(
            double,
            "POST",
            "/token?grant_type=id_token",
            body: ["provider": "apple", "id_token": token]
        )
        #expect(reply.status == 200)
        #expect((reply.json["user"] as? [String: Any])?["id"] as? String == id)
    }
}
