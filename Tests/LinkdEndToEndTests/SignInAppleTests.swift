import Foundation
import Glibc
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdTestSupport
import Testing

/// Sign in with Apple end to end: `linkd login --provider apple` opens the Apple stand-in's authorization page in
/// the browser (a stand-in that posts Apple's form to the Return URL, where the example page of share/examples runs,
/// and hands the link it redirects to to `linkd open`); the daemon checks the state and nonce and signs in with the
/// GoTrue double's id-token grant, and the app's program gets the session.
@Suite(.ownThread) struct SignInAppleTests {
    static let clientID = "com.example.signin.web"

    final class World: Sendable {
        let signIn: SignInTests.World
        let apple: AppleDouble
        /// The example Return URL page, served by Python's WSGI server.
        let returnPage: SpawnedProcess
        let returnURL: String
        /// The App Services double, when the app's backend is App Services (else the GoTrue double is).
        let appServices: AppServicesDouble?
        var world: DaemonHarness { signIn.world }
        var gotrue: GoTrueDouble { signIn.gotrue }

        /// - Parameters:
        ///   - appServices: whether the app's backend is App Services rather than Supabase.
        ///   - delivery: the `signin` action's value; by default the world's recording program.
        init(appServices: Bool = false, delivery: String? = nil) throws {
            signIn = try SignInTests.World()
            apple = try AppleDouble(folder: signIn.world.root.appendingPathComponent("apple"))
            let free = try LoopbackListener()  // a free port, given to the page's server
            let port = free.port
            free.close()
            returnURL = "http://127.0.0.1:\(port)/apple"
            let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("share/examples/apple-return.py").path
            returnPage = try signIn.world.start(
                [example, String(port)],
                executable: "/usr/bin/python3",
                extra: ["LINKD_APPLE_APP_LINK": "signinapp://apple"]
            )
            self.appServices = try appServices ? AppServicesDouble() : nil
            apple.addClient(SignInAppleTests.clientID, returnURLs: [returnURL])
            gotrue.enableApple(clientIDs: [SignInAppleTests.clientID], keysOf: apple)
            self.appServices?.enableApple(clientIDs: [SignInAppleTests.clientID], keysOf: apple)
            let record = world.root.appendingPathComponent("record.sh").path
            let signin = delivery ?? #"{"exec": ["\#(record)"]}"#
            let backend =
                if let double = self.appServices {
                    #"{"kind": "appservices", "url": "\#(double.baseURL)", "appId": "\#(AppServicesDouble.appID)"}"#
                } else {
                    #"{"kind": "supabase", "url": "\#(gotrue.baseURL)", "apiKey": "\#(GoTrueDouble.apiKey)"}"#
                }
            let supabaseLink =
                #"{"match": "signinapp://signin", "format": "supabase", "action": {"signin": \#(signin)}}"#
            let config = """
                {"app": "\(SignInTests.app)", "links": [
                  \(appServices ? "" : supabaseLink + ",")
                  {"match": "signinapp://apple", "format": "apple", "action": {"signin": \(signin)}}],
                 "backend": \(backend),
                 "apple": {"clientId": "\(SignInAppleTests.clientID)", "redirectUri": "\(returnURL)",
                           "authorizeUrl": "\(apple.authorizeURL)"}}
                """
            try Data(config.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/signin.json"))
        }

        deinit {
            kill(returnPage.pid, SIGKILL)
            returnPage.waitUntilExit()
        }

        /// The files of the Apple sign-in store.
        var storedSecrets: [String] {
            (try? FileManager.default.contentsOfDirectory(atPath: world.state.path + "/linkd/apple-signin")) ?? []
        }

        /// A `$BROWSER` program: loads Apple's page, posts its form to the Return URL (as the page's `onload` does),
        /// and runs `linkd open` on where the Return URL redirects, its output in `browser-open.txt` beside it; the
        /// link itself goes to `browser-link.txt`.
        func makeBrowser() throws -> String {
            let path = world.root.appendingPathComponent("browser.py").path
            let script = BrowserStandIn.postingAppleForm(
                then: """
                    with open(sys.argv[0] + "-link.txt", "w") as output:
                        output.write(location)

                    """ + SignInProviderTests.openLocation
            )
            try ProgramFile.write(script, to: URL(fileURLWithPath: path))
            return path
        }

        /// Stores `secret` for the app as `linkd login --provider apple` does, `age` seconds ago.
        func storeSecret(_ secret: String, age: Int64 = 0) throws {
            let store = PKCEStore(stateFolder: world.state.path + "/linkd", purpose: .appleSignIn)
            try store.store(Secret(secret), app: SignInTests.app, now: Int64(Date().timeIntervalSince1970) - age)
        }

        /// The callback link Apple's answer for `secret`'s sign-in leads to, through the Return URL page: an id token
        /// the stand-in signed with `nonce` (by default the secret's hash) and the given `state`.
        func callback(
            secret: String,
            state: String? = nil,
            nonce: String? = nil,
            idToken: Bool = true,
            user: String? = nil
        ) -> String {
            let now = Int(Date().timeIntervalSince1970)
            let token = apple.idToken(claims: [
                "iss": AppleDouble.issuer, "aud": SignInAppleTests.clientID, "exp": now + 600, "iat": now,
                "sub": "000123.0a1b.1234", "email": SignInTests.email, "email_verified": true,
                "nonce": nonce ?? AppleSignInRequest.nonce(for: secret),
            ])
            let given = state ?? AppleSignInRequest.state(for: secret)
            let userField = user ?? (idToken ? nil : "{}")
            return "signinapp://apple#code=c1.abc&" + (idToken ? "id_token=\(token)&" : "") + "state=\(given)"
                + (userField.map { "&user=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }
                    ?? "")
        }

        /// `linkd login --provider apple` on a terminal, keeping the sign-in that comes back (Enter).
        func login(browser: String) throws -> LinkdProcess.Output {
            try signIn.runOnTerminal(
                ["login", "--app", SignInTests.app, "--provider", "apple"],
                answer: "",
                extra: ["BROWSER": browser]
            )
        }

        /// Starts the daemon (with a link no app claims) and a `linkd login` stand-in that waits for the app's
        /// sign-in and keeps it.
        func waitingLogin() throws -> LoginStandIn {
            _ = try world.run(["open", "signinapp://unclaimed"])
            return try LoginStandIn(world, app: SignInTests.app, keep: true)
        }
    }

    @Test func theBrowserSignsInWithAppleAndTheProgramGetsTheSessionOnce() throws {
        let world = try World()
        let browser = try world.makeBrowser()
        let login = try world.login(browser: browser)
        #expect(login.status == 0, "\(login)\n\(world.world.daemonLog())")
        #expect(login.stdout.hasSuffix("signed in: com.example.SignIn with apple\r\n"), "\(login)")
        let opened = SignInProviderTests.browserOutput(browser)
        #expect(
            opened
                == "done: apple.callback → com.example.SignIn: signed in: com.example.SignIn as ada@example.com\n"
                + "status 0\n"
        )
        // What Apple was asked: the web flow, with a state and a hashed nonce.
        let address = try #require(
            login.stdout.split(whereSeparator: \.isWhitespace).first {
                $0.hasPrefix(world.apple.authorizeURL)
            }
        )
        let asked = try #require(URLComponents(string: String(address)))
        let query = Dictionary(uniqueKeysWithValues: (asked.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["client_id"] == Self.clientID && query["redirect_uri"] == world.returnURL)
        #expect(query["response_type"] == "code id_token" && query["response_mode"] == "form_post")
        #expect(query["scope"] == "name email")
        #expect(query["state"]?.count == 43 && query["nonce"]?.count == 64)

        #expect(world.world.waitUntil(.seconds(10)) { world.world.receivedPayloads().count == 1 })
        let payload = try #require(world.world.receivedPayloads().first)
        #expect(payload["route"] as? String == "apple.callback")
        #expect(payload["url"] == nil && payload["fields"] == nil)
        let session = try #require(payload["session"] as? [String: Any])
        let accessToken = try #require(session["access_token"] as? String)
        #expect(world.gotrue.isSessionLive(accessToken: accessToken))
        #expect((session["user"] as? [String: Any])?["email"] as? String == SignInTests.email)
        let grants = world.gotrue.requests.filter { $0.path == "/auth/v1/token" }
        #expect(grants.map(\.target) == ["/auth/v1/token?grant_type=id_token"])
        let grant = try #require(grants.first?.jsonBody)
        #expect(grant["provider"] as? String == "apple")
        #expect((grant["nonce"] as? String)?.count == 43)  // the raw secret; Apple got its hash
        #expect(world.storedSecrets.isEmpty)  // used up by the sign-in

        // The same callback again: its state is spent, so it is refused before anything is sent.
        let link = try String(contentsOfFile: browser + "-link.txt", encoding: .utf8)
        let fragment = String(try #require(link.split(separator: "#").last))
        let idToken = try #require(
            URLComponents(string: "x://y?" + fragment)?.queryItems?.first { $0.name == "id_token" }?.value
        )
        let again = try world.world.run(["open", link])
        #expect(again.status == 65, "\(again)")
        #expect(again.stderr.hasSuffix("[not_started_by_linkd]\n"))
        #expect(world.gotrue.requests.filter { $0.path == "/auth/v1/token" }.count == 1)
        #expect(world.world.receivedPayloads().count == 1)
        let leaks = world.signIn.leakSurfaces() + again.stdout + again.stderr + login.stdout + login.stderr
        for secret in [accessToken, idToken] { #expect(!leaks.contains(secret)) }
    }

    @Test func aCallbackOfAnotherSignInOrWithAnotherNonceIsRefusedBeforeAnythingIsSent() throws {
        let world = try World()
        let secret = PKCE.makeVerifier()
        try world.storeSecret(secret)
        let other = PKCE.makeVerifier()
        let cases = [
            // Someone else's sign-in (login CSRF): its state is not the one issued here.
            (world.callback(secret: other), "not_started_by_linkd"),
            (world.callback(secret: secret, state: String(repeating: "s", count: 10_000)), "not_started_by_linkd"),
            // The right state with an id token of another request.
            (world.callback(secret: secret, nonce: AppleSignInRequest.nonce(for: other)), "nonce_mismatch"),
            (world.callback(secret: secret, nonce: ""), "nonce_mismatch"),
            (world.callback(secret: secret, idToken: false), "no_id_token"),
        ]
        for (link, reason) in cases {
            let opened = try world.world.run(["open", link])
            #expect(opened.status == 65, "\(opened)")
            #expect(opened.stderr.hasSuffix("[\(reason)]\n"), "\(opened)")
        }
        #expect(world.gotrue.requests.isEmpty)  // nothing was sent
        #expect(world.storedSecrets.count == 1)  // and the real sign-in can still come back
        let login = try world.waitingLogin()
        let real = try world.world.run(["open", world.callback(secret: secret)])
        #expect(login.outcome()?.hasPrefix(#"{"ok": true, "route": "apple.callback""#) == true)
        #expect(
            login.questions == [
                #"{"ask": "confirm", "prompt": "Signed in to com.example.SignIn as ada@example.com — keep?"}"#
            ]
        )
        #expect(real.status == 0, "\(real)\n\(world.world.daemonLog())")
        #expect(world.storedSecrets.isEmpty)
    }

    /// Cancel at Apple's page: the Return URL page hands on `#error=user_cancelled_authorize&state=…`. With linkd's
    /// state it is said as a cancel, the waiting `linkd login` hears it at once and the secret is spent; with another
    /// state it is said as a cancel too, and the sign-in linkd started stays open.
    @Test func aCancelAtApplesPageEndsTheWaitingLoginAtOnce() throws {
        let world = try World()
        let secret = PKCE.makeVerifier()
        try world.storeSecret(secret)
        let login = try world.waitingLogin()
        let foreign = "signinapp://apple#error=user_cancelled_authorize&state=\(AppleSignInRequest.state(for: "x"))"
        let notOurs = try world.world.run(["open", foreign])
        #expect(notOurs.status == 65, "\(notOurs)")
        #expect(
            notOurs.stderr
                == "Error: link 1: the sign-in to com.example.SignIn was cancelled; nothing was signed in "
                + "[signin_cancelled]\n"
        )
        #expect(world.storedSecrets.count == 1, "a cancel of another sign-in leaves linkd's open")
        let state = AppleSignInRequest.state(for: secret)
        let cancelled = try world.world.run(["open", "signinapp://apple#error=user_cancelled_authorize&state=\(state)"])
        let started = ContinuousClock.now  // the cancel answered: the daemon has told the waiting login
        #expect(cancelled.status == 65, "\(cancelled)")
        #expect(cancelled.stderr.hasSuffix("[signin_cancelled]\n"))
        let outcome = login.outcome(within: .seconds(5))
        // At once: the bound holds for the plain build; an instrumented one runs several times slower.
        if TimeBounds.hold { #expect(ContinuousClock.now - started < .seconds(2), "the wait ended at once") }
        #expect(outcome?.contains(#""reason": "signin_cancelled""#) == true, "\(outcome ?? "nothing")")
        #expect(world.storedSecrets.isEmpty, "the sign-in's secret is spent")
        #expect(world.gotrue.requests.isEmpty)
        // Another error of Apple's is its own words.
        let failed = try world.world.run([
            "open", "signinapp://apple#error=invalid_scope&error_description=Bad%20scope",
        ])
        #expect(failed.status == 65)
        #expect(
            failed.stderr
                == "Error: link 1: the sign-in to com.example.SignIn failed (invalid_scope): Bad scope [provider_error]\n"
        )
    }

    /// The name Apple sends at the first sign-in only (the `user` field) reaches the app with the session.
    @Test func theNameOfTheFirstSignInGoesWithTheSession() throws {
        let world = try World()
        let secret = PKCE.makeVerifier()
        try world.storeSecret(secret)
        let login = try world.waitingLogin()
        let user = #"{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"ada@example.com"}"#
        let opened = try world.world.run(["open", world.callback(secret: secret, user: user)])
        #expect(opened.status == 0, "\(opened)\n\(world.world.daemonLog())")
        #expect(login.outcome()?.hasPrefix(#"{"ok": true"#) == true)
        #expect(world.world.waitUntil(.seconds(10)) { world.world.receivedPayloads().count == 1 })
        let session = try #require(world.world.receivedPayloads().first?["session"] as? [String: Any])
        let name = (session["user"] as? [String: Any])?["name"] as? [String: String]
        #expect(name == ["firstName": "Ada", "lastName": "Lovelace"])
    }

    @Test func aCallbackOlderThanTenMinutesIsRefused() throws {
        let world = try World()
        let secret = PKCE.makeVerifier()
        try world.storeSecret(secret, age: 601)
        let opened = try world.world.run(["open", world.callback(secret: secret)])
        #expect(opened.status == 65, "\(opened)")
        #expect(opened.stderr.hasSuffix("[not_started_by_linkd]\n"))
        #expect(world.gotrue.requests.isEmpty)
    }

    @Test func aCallbackOpenedAHundredTimesAtOnceSignsInOnce() throws {
        let world = try World()
        let secret = PKCE.makeVerifier()
        try world.storeSecret(secret)
        let link = world.callback(secret: secret)
        // The daemon first, so that the hundred clients do not race to start one.
        #expect(try world.world.run(["open", "signinapp://apple#state=x&id_token=a.b.c"]).status == 65)
        let login = try LoginStandIn(world.world, app: SignInTests.app, keep: true)
        try world.signIn.expectOneSignIn(opening: link, times: 100)
        #expect(login.questions.count == 1)
    }
}
