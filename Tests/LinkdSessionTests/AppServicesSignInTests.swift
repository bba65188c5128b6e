import Foundation
import LinkdFormats
import LinkdSession
import LinkdTestSupport
import Testing

/// Sign in with Apple at App Services (backend-contract.md B.5–B.7): the login with the id token, the profile for the
/// email, and the sign-out, each request as realm-core sends it, against the App Services double and the Apple
/// stand-in's signed tokens.
@Suite(.ownThread) struct AppServicesSignInTests {
    static let clientID = "com.example.notes.web"

    struct World {
        let double: AppServicesDouble
        let apple: AppleDouble
        let signIn: AppServicesSignIn

        init(clientIDs: [String] = [AppServicesSignInTests.clientID]) throws {
            double = try AppServicesDouble()
            apple = try AppleDouble(
                folder: FileManager.default.temporaryDirectory.appendingPathComponent("linkd-as-" + UUID().uuidString)
            )
            if !clientIDs.isEmpty { double.enableApple(clientIDs: clientIDs, keysOf: apple) }
            signIn = AppServicesSignIn(
                client: AppServicesClient(
                    url: double.baseURL,
                    appID: AppServicesDouble.appID,
                    transport: CurlTransport()
                )
            )
        }

        /// An id token of the stand-in's for `sub`, with `audience` and a lifetime of `lifetime` seconds.
        func idToken(sub: String = "000123.0a1b.1234", audience: String = clientID, lifetime: Int = 600) -> Secret {
            let now = Int(Date().timeIntervalSince1970)
            return Secret(
                apple.idToken(claims: [
                    "iss": AppleDouble.issuer, "aud": audience, "exp": now + lifetime, "iat": now, "sub": sub,
                    "email": "ada@example.com", "email_verified": true, "nonce": "9f86d081884c7d65",
                ])
            )
        }
    }

    @Test func anAppleIDTokenSignsInWithTheRequestsRealmCoreSends() async throws {
        let world = try World()
        let token = world.idToken()
        let session = try await world.signIn.signInWithApple(idToken: token, secret: PKCEVerifier(Secret("s")))
        #expect(session.email == "ada@example.com" && session.provider == "oauth2-apple")
        #expect(world.double.appleUserEmail(sub: "000123.0a1b.1234") == "ada@example.com")
        let claims = try #require(JWTClaims(session.accessToken))
        #expect(session.expiresAt == claims.expiresAt && claims.subject == session.userID)
        #expect(world.double.liveSessionCount(for: "ada@example.com") == 1)

        let requests = world.double.requests
        #expect(
            requests.map { "\($0.method) \($0.target)" } == [
                "POST /api/client/v2.0/app/\(AppServicesDouble.appID)/auth/providers/oauth2-apple/login",
                "GET /api/client/v2.0/auth/profile",
            ]
        )
        let login = requests[0]
        #expect(login.header("Content-Type") == "application/json;charset=utf-8")
        #expect(login.header("Accept") == "application/json" && login.header("Authorization") == nil)
        let body = try #require(login.jsonBody)
        #expect(Set(body.keys) == ["provider", "id_token", "options"], "no nonce, no code, no name")
        #expect(body["provider"] as? String == "oauth2-apple")
        #expect(body["id_token"] as? String == token.revealed())
        let device = try #require((body["options"] as? [String: Any])?["device"] as? [String: String])
        #expect(device["appId"] == AppServicesDouble.appID && device["platform"] == "Linux" && device["sdk"] == "linkd")
        #expect(Set(device.keys).isSuperset(of: ["sdkVersion", "deviceName", "frameworkName", "bundleId"]))
        // The kernel's release and the machine, as uname(1) says them.
        #expect(device["platformVersion"]?.isEmpty == false && device["platformVersion"]?.contains("\0") == false)
        #expect(["x86_64", "aarch64"].contains(device["cpuArch"] ?? ""))
        #expect(requests[1].header("Authorization") == "Bearer " + session.accessToken.revealed())

        #expect(await world.signIn.signOut(session))
        let signOut = try #require(world.double.requests.last)
        #expect("\(signOut.method) \(signOut.target)" == "DELETE /api/client/v2.0/auth/session")
        #expect(signOut.header("Authorization") == "Bearer " + session.refreshToken.revealed())
        #expect(world.double.liveSessionCount(for: "ada@example.com") == 0)
        #expect(await !world.signIn.signOut(session), "a session ends once")
    }

    @Test func aTokenAppServicesDoesNotAcceptIsRefusedInItsWordsAndSpendsNothing() async throws {
        let world = try World()
        let foreign = await backendError { () async throws(SessionError) in
            _ = try await world.signIn.signInWithApple(
                idToken: world.idToken(audience: "com.example.other"),
                secret: PKCEVerifier(Secret("s"))
            )
        }
        #expect(foreign?.code == "AuthError" && foreign?.status == 401)
        #expect(foreign?.message == "invalid apple id token: 'aud' must be a string containing the client_id")
        let expired = await backendError { () async throws(SessionError) in
            _ = try await world.signIn.signInWithApple(
                idToken: world.idToken(lifetime: -60),
                secret: PKCEVerifier(Secret("s"))
            )
        }
        #expect(expired?.message == "failed to validate id_token: token is expired")
        let forged = Secret(String(world.idToken().revealed().dropLast(4)) + "AAAA")
        let badSignature = await backendError { () async throws(SessionError) in
            _ = try await world.signIn.signInWithApple(idToken: forged, secret: PKCEVerifier(Secret("s")))
        }
        #expect(badSignature?.message == "failed to validate id_token: token signature is invalid")
        #expect(world.double.liveSessionCount(for: "ada@example.com") == 0)
        #expect(world.double.requests.allSatisfy { $0.path.hasSuffix("/oauth2-apple/login") }, "no profile asked")

        let unset = try World(clientIDs: [])
        let missing = await backendError { () async throws(SessionError) in
            _ = try await unset.signIn.signInWithApple(idToken: unset.idToken(), secret: PKCEVerifier(Secret("s")))
        }
        #expect(missing?.code == "AuthProviderNotFound" && missing?.status == 404)
    }
}
