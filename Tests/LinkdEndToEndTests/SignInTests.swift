import Foundation
import LinkdTestSupport
import Testing

/// The `signin` action end to end: `linkd login --email` asks the GoTrue double for a magic link with PKCE over real
/// HTTP, the link its email leads to goes through `linkd open` to the daemon, which exchanges the code with the
/// stored verifier and hands the session, never the link, to the app's program.
@Suite(.ownThread) struct SignInTests {
    static let app = "com.example.SignIn"
    static let email = "ada@example.com"

    /// A daemon world with `com.example.SignIn`: `signinapp://signin` signs in and runs the world's recording program
    /// with the session, `signinapp://reset` is a reset; both against the GoTrue double, which knows ada@example.com.
    final class World: Sendable {
        let world: DaemonHarness
        let gotrue: GoTrueDouble

        /// - Parameter delivery: the `signin` action's value; by default the world's recording program.
        init(delivery: String? = nil) throws {
            world = try DaemonHarness()
            gotrue = try GoTrueDouble()
            gotrue.addUser(email: SignInTests.email, password: "old-password")
            let record = world.root.appendingPathComponent("record.sh").path
            let config = """
                {"app": "\(SignInTests.app)", "links": [
                  {"match": "signinapp://signin", "format": "supabase", "action": {"signin": \(delivery ?? #"{"exec": ["\#(record)"]}"#)}},
                  {"match": "signinapp://reset", "format": "supabase", "action": "reset"}],
                 "backend": {"kind": "supabase", "url": "\(gotrue.baseURL)", "apiKey": "\(GoTrueDouble.apiKey)"}}
                """
            try Data(config.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/signin.json"))
        }

        /// The files of the sign-in verifier store.
        var storedVerifiers: [String] {
            (try? FileManager.default.contentsOfDirectory(atPath: world.state.path + "/linkd/pkce-signin")) ?? []
        }

        func login(_ email: String = SignInTests.email) throws -> LinkdProcess.Output {
            try world.run(["login", "--app", SignInTests.app, "--email", email])
        }

        func open(_ link: String) throws -> LinkdProcess.Output { try world.run(["open", link]) }

        /// Opens `link` `times` times at once (the daemon already running): every `linkd open` signs in or is
        /// refused, the backend is asked once, the program gets one session, and the daemon stays up.
        func expectOneSignIn(opening link: String, times: Int) throws {
            let clients = try (0..<times).map { index in
                try world.start(["open", link], stdoutPath: world.root.path + "/out-\(index).txt")
            }
            for client in clients { client.waitUntilExit() }
            let statuses = clients.map(\.terminationStatus)
            #expect(statuses.allSatisfy { $0 == 0 || $0 == 65 }, "\(statuses)")
            #expect(statuses.contains(0))
            #expect(gotrue.requests.filter { $0.path == "/auth/v1/token" }.count == 1)
            // One token request is one session: every client has its answer, so no other session can come.
            #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 1 })
            #expect(world.daemonPIDs().count == 1)  // no crash
        }

        /// `linkd open LINK` on a terminal of its own (a pseudo-terminal, Python's `pty.spawn`), typing `answer`:
        /// its standard input and output are the terminal, so its prompts and what it prints are in `stdout`.
        func openOnTerminal(_ link: String, answer: String) throws -> LinkdProcess.Output {
            try runOnTerminal(["open", link], answer: answer)
        }

        /// `linkd ARGUMENTS` on a terminal of its own, as ``openOnTerminal(_:answer:)`` runs `linkd open`, with
        /// `extra` environment.
        func runOnTerminal(
            _ arguments: [String],
            answer: String,
            extra: [String: String] = [:]
        ) throws -> LinkdProcess.Output {
            let pty = "import os, pty, sys; sys.exit(os.waitstatus_to_exitcode(pty.spawn(sys.argv[1:])))"
            return try world.run(
                arguments,
                stdin: Data((answer + "\n").utf8),
                extra: extra,
                launcher: ["/usr/bin/python3", "-c", pty]
            )
        }

        /// The daemon's log, the spool's names, the argv and environment of the program and of the daemons.
        func leakSurfaces() -> String {
            var text = (try? String(contentsOfFile: world.logPath, encoding: .utf8)) ?? ""
            text += (try? String(contentsOf: world.processInfoLog, encoding: .utf8)) ?? ""
            text += ((try? FileManager.default.contentsOfDirectory(atPath: world.spoolPath)) ?? []).joined()
            for pid in world.daemonPIDs() {
                for file in ["cmdline", "environ"] {
                    text += String(
                        decoding: FileManager.default.contents(atPath: "/proc/\(pid)/\(file)") ?? Data(),
                        as: UTF8.self
                    )
                }
            }
            return text
        }
    }

    @Test func aMagicLinkLinkdAskedForSignsInOnceAndTheProgramGetsTheSession() throws {
        let world = try World()
        let requested = try world.login()
        #expect(requested.status == 0, "\(requested)")
        #expect(
            requested.stdout
                == "requested: a sign-in email for com.example.SignIn is on its way to a***@example.com; open its link "
                + "here within 10 minutes.\n"
        )
        let otp = try #require(world.gotrue.requests.first)
        #expect(otp.target == "/auth/v1/otp?redirect_to=signinapp%3A%2F%2Fsignin")
        #expect(otp.jsonBody?["email"] as? String == Self.email)
        #expect(otp.jsonBody?["create_user"] as? Bool == false)
        #expect(otp.jsonBody?["code_challenge_method"] as? String == "s256")
        #expect((otp.jsonBody?["code_challenge"] as? String)?.count == 43)
        #expect(world.storedVerifiers.count == 1)

        let link = try #require(world.gotrue.magicLinkRedirect(for: Self.email))
        let code = String(try #require(link.split(separator: "=").last))
        let opened = try world.open(link)
        #expect(opened.status == 0, "\(opened)\n\(world.world.daemonLog())")
        #expect(
            opened.stdout
                == "done: supabase.pkce → com.example.SignIn: signed in: com.example.SignIn as ada@example.com\n"
        )
        #expect(world.world.waitUntil(.seconds(10)) { world.world.receivedPayloads().count == 1 })
        let payload = try #require(world.world.receivedPayloads().first)
        #expect(payload["app"] as? String == Self.app)
        #expect(payload["route"] as? String == "supabase.pkce")
        #expect(payload["backend"] as? String == "supabase")
        #expect(payload["url"] == nil && payload["fields"] == nil)  // the session, never the link
        let session = try #require(payload["session"] as? [String: Any])
        let accessToken = try #require(session["access_token"] as? String)
        let refreshToken = try #require(session["refresh_token"] as? String)
        #expect(world.gotrue.isSessionLive(accessToken: accessToken))  // tokens the double issued
        #expect(session["token_type"] as? String == "bearer")
        #expect(session["provider"] as? String == "email")
        #expect((session["expires_at"] as? Int ?? 0) > Int(Date().timeIntervalSince1970))
        #expect((session["user"] as? [String: Any])?["email"] as? String == Self.email)
        #expect(
            world.gotrue.requestLines == [
                "POST /auth/v1/otp?redirect_to=signinapp%3A%2F%2Fsignin", "POST /auth/v1/token?grant_type=pkce",
            ]
        )
        #expect(world.storedVerifiers.isEmpty)  // used up by the exchange

        let leaks = world.leakSurfaces()
        for secret in [accessToken, refreshToken, code] { #expect(!leaks.contains(secret)) }

        // The same link again: its verifier is spent, so it is refused before anything is sent.
        let again = try world.open(link)
        #expect(again.status == 65, "\(again)")
        #expect(again.stderr.contains("linkd did not start this sign-in to com.example.SignIn"))
        #expect(again.stderr.hasSuffix("[not_started_by_linkd]\n"))
        #expect(world.gotrue.requests.count == 2)
        #expect(world.world.receivedPayloads().count == 1)
    }

    @Test func aForeignCodeFailsAtTheBackendAndLeavesTheVerifierForTheEmailsLink() throws {
        let world = try World()
        #expect(try world.login().status == 0)
        let foreign = try world.open("signinapp://signin?code=\(UUID().uuidString.lowercased())")
        #expect(foreign.status == 65, "\(foreign)")
        #expect(foreign.stderr.contains("flow_state_not_found") && foreign.stderr.hasSuffix("[link_expired]\n"))
        #expect(world.storedVerifiers.count == 1)
        let link = try #require(world.gotrue.magicLinkRedirect(for: Self.email))
        let opened = try world.open(link)
        #expect(opened.status == 0, "\(opened)\n\(world.world.daemonLog())")
        #expect(world.world.waitUntil(.seconds(10)) { world.world.receivedPayloads().count == 1 })
    }

    @Test func aCallbackOpenedFiftyTimesAtOnceIsExchangedOnceAndDeliveredOnce() throws {
        let world = try World()
        #expect(try world.login().status == 0)
        let link = try #require(world.gotrue.magicLinkRedirect(for: Self.email))
        // The daemon first, so that the fifty clients do not race to start one.
        #expect(try world.open("signinapp://signin?token_hash=x&type=magiclink").status == 65)
        try world.expectOneSignIn(opening: link, times: 50)
    }

    @Test func signInsLinkdDidNotStartAreRefusedBeforeAnythingIsSent() throws {
        let world = try World()
        // A reset's verifier proves no sign-in: the two are stored apart.
        let reset = try world.world.run(["reset", "request", "--app", Self.app, "--email", Self.email])
        #expect(reset.status == 0, "\(reset)")
        let resetCode = try #require(world.gotrue.pkceCode(for: Self.email))
        let links = [
            ("signinapp://signin?code=\(resetCode)", "not_started_by_linkd"),
            // Emailed sign-ins ask the person first, and with no terminal no one can be asked.
            ("signinapp://signin?token_hash=0123456789abcdef&type=magiclink", "cannot_confirm"),
            ("signinapp://signin?token_hash=0123456789abcdef&type=signup", "cannot_confirm"),
            (
                "signinapp://signin#access_token=a.b.c&refresh_token=r1&expires_in=3600&token_type=bearer&type=magiclink",
                "cannot_confirm"
            ),
            ("signinapp://signin?token_hash=0123456789abcdef&type=recovery", "not_a_signin"),
        ]
        for (link, reason) in links {
            let opened = try world.open(link)
            #expect(opened.status == 65, "\(link): \(opened)")
            #expect(opened.stderr.hasSuffix("[\(reason)]\n"), "\(link): \(opened)")
        }
        let expired = try world.open(
            "signinapp://signin#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid"
        )
        #expect(expired.status == 65 && expired.stderr.hasSuffix("[link_expired]\n"), "\(expired)")
        #expect(world.gotrue.requestLines == ["POST /auth/v1/recover?redirect_to=signinapp%3A%2F%2Freset"])
        #expect(world.world.receivedPayloads().isEmpty)
    }

    @Test(arguments: ["magiclink", "signup"])
    func anEmailedSignInIsDeliveredOnlyOnceThePersonConfirmsItOnTheTerminal(_ type: String) throws {
        let world = try World()
        let hash = { () -> String? in
            type == "signup"
                ? world.gotrue.confirmationTokenHash(for: Self.email) : world.gotrue.recoveryTokenHash(for: Self.email)
        }
        // Declined: the backend verified the link (that shows whose account it is), the session is signed out, and
        // the app gets nothing.
        let declined = try world.openOnTerminal(
            "signinapp://signin?token_hash=\(try #require(hash()))&type=\(type)",
            answer: "n"
        )
        #expect(declined.status == 65, "\(declined)\n\(world.world.daemonLog())")
        #expect(declined.stdout.contains("Sign in to com.example.SignIn as ada@example.com? [y/N]"), "\(declined)")
        #expect(declined.stdout.contains("[not_confirmed]"), "\(declined)")
        #expect(world.gotrue.requestLines == ["POST /auth/v1/verify", "POST /auth/v1/logout?scope=local"])
        #expect(world.world.receivedPayloads().isEmpty)

        let confirmed = try world.openOnTerminal(
            "signinapp://signin?token_hash=\(try #require(hash()))&type=\(type)",
            answer: "y"
        )
        #expect(confirmed.status == 0, "\(confirmed)\n\(world.world.daemonLog())")
        #expect(confirmed.stdout.contains("signed in: com.example.SignIn as ada@example.com"), "\(confirmed)")
        #expect(world.world.waitUntil(.seconds(10)) { world.world.receivedPayloads().count == 1 })
        let session = try #require(world.world.receivedPayloads().first?["session"] as? [String: Any])
        let accessToken = try #require(session["access_token"] as? String)
        #expect(world.gotrue.isSessionLive(accessToken: accessToken))
        #expect(!world.leakSurfaces().contains(accessToken))
    }

    @Test func anImplicitSessionIsCheckedWithTheBackendAndConfirmedOnTheTerminal() throws {
        let world = try World()
        let tokens = try #require(world.gotrue.signedInSession(for: Self.email, method: "otp"))
        let link =
            "signinapp://signin#access_token=\(tokens.accessToken)&expires_in=3600&refresh_token=\(tokens.refreshToken)"
            + "&token_type=bearer&type=magiclink"
        let confirmed = try world.openOnTerminal(link, answer: "yes")
        #expect(confirmed.status == 0, "\(confirmed)\n\(world.world.daemonLog())")
        #expect(world.gotrue.requestLines == ["GET /auth/v1/user"])
        #expect(world.world.waitUntil(.seconds(10)) { world.world.receivedPayloads().count == 1 })
        let session = try #require(world.world.receivedPayloads().first?["session"] as? [String: Any])
        #expect(session["access_token"] as? String == tokens.accessToken)
        #expect(session["refresh_token"] as? String == tokens.refreshToken)
        #expect(!world.leakSurfaces().contains(tokens.accessToken))
        #expect(!world.leakSurfaces().contains(tokens.refreshToken))
    }

    @Test func loginForAnAddressWithNoAccountSaysSoAndKeepsNoVerifier() throws {
        let world = try World()
        let result = try world.login("nobody@example.com")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("Signups not allowed for otp"), "\(result)")
        #expect(world.storedVerifiers.isEmpty)
        let unknown = try world.world.run(["login", "--app", "com.example.Nope", "--email", Self.email])
        #expect(unknown.status == 64 && unknown.stderr.contains("no app 'com.example.Nope'"), "\(unknown)")
    }
}
