import Foundation
import Glibc
import LinkdFormats
import LinkdSession
import LinkdTestSupport
import Testing

/// Sign in with Apple for an app whose backend is Atlas App Services: the same browser flow as for Supabase
/// (`linkd login --provider apple`, Apple's form post to the Return URL page, the `apple` sign-in link), and the id
/// token goes to App Services' `oauth2-apple/login` (then its profile, for the email); the app gets the session in
/// the shape a Supabase session has, with `"backend": "appservices"`.
@Suite(.ownThread) struct SignInAppleAppServicesTests {
    @Test func theBrowserSignsInWithAppleAtAppServicesAndTheProgramGetsTheSession() throws {
        let world = try SignInAppleTests.World(appServices: true)
        let double = try #require(world.appServices)
        let browser = try world.makeBrowser()
        let login = try world.login(browser: browser)
        #expect(login.status == 0, "\(login)\n\(world.world.daemonLog())")
        #expect(login.stdout.hasSuffix("signed in: com.example.SignIn with apple\r\n"), "\(login)")
        #expect(
            SignInProviderTests.browserOutput(browser)
                == "done: apple.callback → com.example.SignIn: signed in: com.example.SignIn as ada@example.com\n"
                + "status 0\n"
        )
        #expect(world.world.waitUntil(.seconds(10)) { world.world.receivedPayloads().count == 1 })
        let payload = try #require(world.world.receivedPayloads().first)
        #expect(payload["route"] as? String == "apple.callback" && payload["backend"] as? String == "appservices")
        #expect(payload["url"] == nil && payload["fields"] == nil)
        let session = try #require(payload["session"] as? [String: Any])
        #expect(session["provider"] as? String == "oauth2-apple" && session["token_type"] as? String == "bearer")
        let user = try #require(session["user"] as? [String: Any])
        #expect(user["email"] as? String == SignInTests.email && (user["id"] as? String)?.isEmpty == false)
        let accessToken = try #require(session["access_token"] as? String)
        let claims = try #require(JWTClaims(Secret(accessToken)))
        #expect(session["expires_at"] as? Int == claims.expiresAt.map(Int.init))
        #expect(double.liveSessionCount(for: SignInTests.email) == 1)

        let requests = double.requests.map { "\($0.method) \($0.target)" }
        #expect(
            requests == [
                "POST /api/client/v2.0/app/\(AppServicesDouble.appID)/auth/providers/oauth2-apple/login",
                "GET /api/client/v2.0/auth/profile",
            ]
        )
        let body = try #require(double.requests.first?.jsonBody)
        #expect(Set(body.keys) == ["provider", "id_token", "options"])
        #expect(world.gotrue.requests.isEmpty, "nothing went to Supabase")
        #expect(world.storedSecrets.isEmpty)  // used up by the sign-in

        // The same callback again: its state is spent, so it is refused before anything is sent.
        let link = try String(contentsOfFile: browser + "-link.txt", encoding: .utf8)
        let again = try world.world.run(["open", link])
        #expect(again.status == 65 && again.stderr.hasSuffix("[not_started_by_linkd]\n"), "\(again)")
        #expect(double.requests.count == 2)
        let idToken = try #require(body["id_token"] as? String)
        let leaks = world.signIn.leakSurfaces() + again.stdout + again.stderr + login.stdout + login.stderr
        for secret in [accessToken, idToken] { #expect(!leaks.contains(secret)) }
    }

    /// A token App Services does not accept (the provider's client id is another Services ID than the one Apple was
    /// asked with) fails in App Services' words; the secret stays for a sign-in that works.
    @Test func aTokenAppServicesRefusesFailsInItsWordsAndKeepsTheSecret() throws {
        let world = try SignInAppleTests.World(appServices: true)
        let double = try #require(world.appServices)
        double.enableApple(clientIDs: ["com.example.other.web"], keysOf: world.apple)
        let secret = PKCE.makeVerifier()
        try world.storeSecret(secret)
        let login = try world.waitingLogin()
        let opened = try world.world.run(["open", world.callback(secret: secret)])
        #expect(opened.status == 65, "\(opened)")
        #expect(login.outcome()?.contains(#""reason": "refused""#) == true)
        #expect(
            opened.stderr
                == "Error: link 1: the backend refused the request: invalid apple id token: 'aud' must be a string "
                + "containing the client_id [AuthError, HTTP 401] [refused]\n"
        )
        #expect(world.storedSecrets.count == 1)
        #expect(world.world.receivedPayloads().isEmpty)
        double.enableApple(clientIDs: [SignInAppleTests.clientID], keysOf: world.apple)
        let again = try LoginStandIn(world.world, app: SignInTests.app, keep: true)
        let retried = try world.world.run(["open", world.callback(secret: secret)])
        #expect(again.outcome()?.hasPrefix(#"{"ok": true"#) == true)
        #expect(retried.status == 0, "\(retried)\n\(world.world.daemonLog())")
        #expect(world.storedSecrets.isEmpty)
    }

    /// At App Services linkd signs in with Apple only: a magic link or another provider is refused before anything is
    /// sent, naming the way that works.
    @Test func aMagicLinkOrAnotherProviderIsRefusedAtAppServices() throws {
        let world = try SignInAppleTests.World(appServices: true)
        let double = try #require(world.appServices)
        for method in [["--email", SignInTests.email], ["--provider", "github"]] {
            let login = try world.world.run(["login", "--app", SignInTests.app] + method)
            #expect(login.status == 64, "\(login)")
            #expect(login.stderr.contains("has no Supabase backend to sign in with"), "\(login)")
            #expect(login.stderr.contains("--provider apple"), "\(login)")
        }
        #expect(double.requests.isEmpty)
    }

    /// A forwarded App Services session no subscriber takes before its time to live is signed out there
    /// (`DELETE …/auth/session` with its refresh token), as a Supabase one is.
    @Test func aForwardedSessionNoOneTakesIsSignedOutAtAppServices() throws {
        let world = try SignInAppleTests.World(appServices: true, delivery: #""forward""#)
        let double = try #require(world.appServices)
        let secret = PKCE.makeVerifier()
        try world.storeSecret(secret)
        let logPath = world.world.root.path + "/daemon.txt"
        let daemon = try world.world.startDaemon(
            ["--idle-exit", "1"],
            extra: ["LINKD_FORWARD_TTL": "1"],
            stderrPath: logPath,
            timeout: .seconds(5)
        )
        // The waiting login's connection holds the daemon while `linkd open` starts, however slowly a loaded machine
        // runs it.
        let login = try LoginStandIn(world.world, app: SignInTests.app, keep: true)
        let opened = try world.world.run(["open", world.callback(secret: secret)])
        #expect(login.outcome() != nil)
        login.close()
        #expect(opened.stdout.hasPrefix("queued: apple.callback → com.example.SignIn: signed in: "), "\(opened)")
        #expect(double.liveSessionCount(for: SignInTests.email) == 1)
        daemon.waitUntilExit()  // it stays up until the session is signed out
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        #expect(log.contains("the session for com.example.SignIn was not taken and was signed out"), "\(log)")
        #expect(double.liveSessionCount(for: SignInTests.email) == 0)
        let signOut = try #require(double.requests.last)
        #expect("\(signOut.method) \(signOut.target)" == "DELETE /api/client/v2.0/auth/session")
    }
}
