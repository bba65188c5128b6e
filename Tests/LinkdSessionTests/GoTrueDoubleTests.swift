import Foundation
import LinkdSession
import LinkdTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The GoTrue double over real HTTP, held to the contract (backend-contract.md §A) it was built from.
@Suite(.ownThread) struct GoTrueDoubleTests {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    func call(
        _ double: GoTrueDouble,
        _ method: String,
        _ target: String,
        bearer: String? = nil,
        body: [String: Any]? = nil,
        current: Bool = true,
        apiKey: String? = GoTrueDouble.apiKey
    ) async throws -> Reply {
        // Through linkd's own transport (libcurl), not URLSession, whose Linux implementation crashed the test runner
        // now and then under the sanitizers.
        var headers: [(name: String, value: String)] = []
        if let apiKey { headers.append(("apikey", apiKey)) }
        if current { headers.append(("X-Supabase-Api-Version", "2024-01-01")) }
        if let bearer { headers.append(("Authorization", "bearer " + bearer)) }
        var bytes: [UInt8] = []
        if let body {
            headers.append(("Content-Type", "application/json"))
            bytes = Array(try JSONSerialization.data(withJSONObject: body))
        }
        let request = HTTPRequest(
            method: method,
            url: double.baseURL + "/auth/v1" + target,
            headers: headers,
            body: bytes
        )
        let response = try await CurlTransport().send(request)
        var lowered: [String: String] = [:]
        for (name, value) in response.headers { lowered[name.lowercased()] = value }
        return Reply(status: response.status, headers: lowered, body: Data(response.body))
    }

    func decoded(_ reply: Reply) -> BackendError {
        GoTrueErrorBody.decode(
            status: reply.status,
            errorCodeHeader: reply.headers["x-sb-error-code"],
            body: reply.body
        )
    }

    @Test func aRecoverySessionChangesThePasswordAndEndsEveryOtherWayIn() async throws {
        let double = try GoTrueDouble()
        double.addUser(email: "ada@example.com", password: "old-password")
        let other = try #require(double.recoverySession(for: "ada@example.com"))
        let hash = try #require(double.recoveryTokenHash(for: "ada@example.com"))
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let user = try await call(double, "GET", "/user", bearer: link.accessToken)
        #expect(user.status == 200 && user.json["email"] as? String == "ada@example.com")
        let changed = try await call(
            double,
            "PUT",
            "/user",
            bearer: link.accessToken,
            body: ["password": "new-password"]
        )
        #expect(changed.status == 200)
        #expect(double.password(of: "ada@example.com") == "new-password")
        #expect(double.isSessionLive(accessToken: link.accessToken))
        #expect(!double.isSessionLive(accessToken: other.accessToken))  // A.3: other sessions logged out
        let stale = try await call(double, "POST", "/verify", body: ["token_hash": hash, "type": "recovery"])
        #expect(
            decoded(stale)
                == BackendError(
                    kind: .linkExpiredOrUsed,
                    status: 403,
                    code: "otp_expired",
                    message: "Email link is invalid or has expired"
                )
        )
        let again = try await call(double, "PUT", "/user", bearer: link.accessToken, body: ["password": "new-password"])
        #expect(again.headers["x-supabase-api-version"] == "2024-01-01")
        #expect(again.headers["x-sb-error-code"] == "same_password")
        #expect(decoded(again).kind == .passwordRejected)
        let out = try await call(double, "POST", "/logout?scope=local", bearer: link.accessToken)
        #expect(out.status == 204 && out.body.isEmpty)
        let gone = try await call(double, "GET", "/user", bearer: link.accessToken)
        #expect(decoded(gone).code == "session_not_found")
        #expect(double.requests.count == 6)
    }

    @Test func errorsComeInTheShapeTheRequestAskedFor() async throws {
        let double = try GoTrueDouble()
        double.addUser(email: "ada@example.com", password: "old-password")
        let link = try #require(double.recoverySession(for: "ada@example.com"))
        let legacy = try await call(
            double,
            "PUT",
            "/user",
            bearer: link.accessToken,
            body: ["password": "abc"],
            current: false
        )
        #expect(legacy.status == 422)
        #expect(legacy.headers["x-supabase-api-version"] == nil)
        let body = legacy.json
        #expect(body["code"] as? Int == 422 && body["error_code"] as? String == "weak_password")
        #expect(body["msg"] as? String == "Password should be at least 6 characters.")
        #expect((body["weak_password"] as? [String: Any])?["reasons"] as? [String] == ["length"])
        let current = try await call(double, "PUT", "/user", bearer: link.accessToken, body: ["password": "abc"])
        #expect(current.json["code"] as? String == "weak_password")
        #expect(decoded(current) == decoded(legacy))
        #expect(decoded(current).reasons == ["length"])
        let long = try await call(
            double,
            "PUT",
            "/user",
            bearer: link.accessToken,
            body: ["password": String(repeating: "x", count: 73)]
        )
        #expect(long.status == 400 && decoded(long).kind == .passwordRejected)
        let noKey = try await call(double, "GET", "/user", bearer: link.accessToken, apiKey: nil)
        #expect(noKey.status == 401 && noKey.json["message"] as? String == "No API key found in request")
    }

    @Test func anExpiredAccessTokenIsRefreshedOnceAndTheRefreshTokenRotates() async throws {
        let double = try GoTrueDouble()
        double.addUser(email: "ada@example.com", password: "old-password")
        let link = try #require(double.recoverySession(for: "ada@example.com", expiresIn: 60))
        double.advanceClock(by: 120)
        let expired = try await call(double, "GET", "/user", bearer: link.accessToken)
        #expect(expired.status == 403 && decoded(expired).code == "bad_jwt")
        let refreshed = try await call(
            double,
            "POST",
            "/token?grant_type=refresh_token",
            body: ["refresh_token": link.refreshToken]
        )
        #expect(refreshed.status == 200)
        let access = try #require(refreshed.json["access_token"] as? String)
        #expect(refreshed.json["refresh_token"] as? String != link.refreshToken)
        #expect(refreshed.json["token_type"] as? String == "bearer")
        #expect(try await call(double, "GET", "/user", bearer: access).status == 200)
        let reused = try await call(
            double,
            "POST",
            "/token?grant_type=refresh_token",
            body: ["refresh_token": link.refreshToken]
        )
        #expect(
            decoded(reused)
                == BackendError(
                    kind: .linkExpiredOrUsed,
                    status: 400,
                    code: "refresh_token_already_used",
                    message: "Invalid Refresh Token: Already Used"
                )
        )
        let short = try await call(double, "POST", "/token?grant_type=refresh_token", body: ["refresh_token": "short"])
        #expect(decoded(short).code == "validation_failed" && decoded(short).message == "Refresh token is not valid")
    }

    @Test func aTokenHashVerifiesOnceAndOnlyWithTokenHashAndType() async throws {
        let double = try GoTrueDouble()
        double.addUser(email: "ada@example.com", password: "old-password")
        let hash = try #require(double.recoveryTokenHash(for: "ada@example.com"))
        let extra = try await call(
            double,
            "POST",
            "/verify",
            body: ["token_hash": hash, "type": "recovery", "email": "ada@example.com"]
        )
        #expect(decoded(extra).message == "Only the token_hash and type should be provided")
        let first = try await call(double, "POST", "/verify", body: ["token_hash": hash, "type": "recovery"])
        #expect(first.status == 200)
        let access = try #require(first.json["access_token"] as? String)
        let claims = try #require(
            Data(base64Encoded: Self.padded(String(access.split(separator: ".")[1])))
                .flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        )
        #expect(claims["email"] as? String == "ada@example.com")
        #expect((claims["amr"] as? [[String: Any]])?.first?["method"] as? String == "otp")
        #expect(claims["exp"] as? Int ?? 0 > Int(Date().timeIntervalSince1970))
        let second = try await call(double, "POST", "/verify", body: ["token_hash": hash, "type": "recovery"])
        #expect(second.status == 403 && decoded(second).kind == .linkExpiredOrUsed)
    }

    @Test func authorizeRefusesAnUnknownProviderAndASignInWithoutPKCEInJSON() async throws {
        let double = try GoTrueDouble()
        double.addUser(email: "ada@example.com", password: "secret1")
        double.addProviderAccount("github", email: "ada@example.com")
        let unknown = try await call(double, "GET", "/authorize?provider=gitlab&redirect_to=x%3A%2F%2Fy", apiKey: nil)
        #expect(unknown.status == 400)
        #expect(unknown.json["msg"] as? String == nil)
        #expect(unknown.json["message"] as? String == "Unsupported provider: Provider gitlab could not be found")
        let implicit = try await call(double, "GET", "/authorize?provider=GitHub", apiKey: nil)
        #expect(implicit.status == 400 && implicit.json["code"] as? String == "validation_failed")
        let short = try await call(
            double,
            "GET",
            "/authorize?provider=github&code_challenge=abc&code_challenge_method=s256",
            apiKey: nil
        )
        #expect(short.json["message"] as? String == "code challenge has to be between 43 and 128 characters")
    }

    static func padded(_ base64url: String) -> String {
        let plain = base64url.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return plain + String(repeating: "=", count: (4 - plain.count % 4) % 4)
    }
}
