import Foundation
import LinkdTestSupport
import Testing

/// The `reset` action end to end: `linkd open` hands the link to the daemon it starts, the daemon runs the reset
/// against the backend doubles over real HTTP and asks `linkd open` for the password on the same connection.
@Suite(.ownThread) struct ResetTests {
    static let password = "Canary-pass-7f3a9"

    @Test func aRecoveryLinkChangesThePasswordOnceWithTheExactRequests() throws {
        let reset = try ResetWorld()
        let link = try reset.recoveryLink()
        let first = try reset.open(link.url, password: Self.password)
        #expect(first.status == 0, "\(first)\n\(reset.world.daemonLog())")
        #expect(
            first.stdout
                == "done: supabase.recovery → com.example.Reset: the password of a***@example.com was changed\n"
        )
        #expect(first.stderr.isEmpty)
        #expect(reset.gotrue.password(of: "ada@example.com") == Self.password)
        let requests = reset.gotrue.requests
        #expect(
            reset.gotrue.requestLines == [
                "GET /auth/v1/user", "PUT /auth/v1/user", "POST /auth/v1/logout?scope=local",
            ]
        )
        #expect(reset.gotrue.missingSessionHeaders(accessToken: link.accessToken) == [])
        #expect(requests[1].header("Content-Type") == "application/json")
        #expect(String(decoding: requests[1].body, as: UTF8.self) == #"{"password": "\#(Self.password)"}"#)

        let again = try reset.open(link.url, password: "another-password")
        #expect(again.status == 65, "\(again)")
        #expect(
            again.stderr.hasPrefix(
                "Error: link 1: this link has expired or was already used; request a new email (Session from "
            )
        )
        #expect(again.stderr.hasSuffix("[link_expired]\n"))
        #expect(reset.gotrue.requests.filter { $0.method == "PUT" }.count == 1)
        #expect(reset.gotrue.password(of: "ada@example.com") == Self.password)

        let logged = reset.leakSurfaces()
        #expect(logged.contains("the password of a***@example.com was changed"))  // the log was read
        let surfaces = logged + first.stdout + first.stderr + again.stdout + again.stderr
        for secret in [Self.password, link.accessToken, link.refreshToken, "another-password"] {
            #expect(!surfaces.contains(secret), "leaked: \(secret.prefix(12))…")
        }
        let signature = String(link.accessToken.split(separator: ".")[2])
        #expect(!surfaces.contains(signature))
    }

    @Test func aWeakPasswordIsRefusedWithTheBackendsReasons() throws {
        let reset = try ResetWorld()
        let link = try reset.recoveryLink()
        let weak = try reset.open(link.url, password: "abc")
        #expect(weak.status == 65, "\(weak)")
        #expect(weak.stderr.hasPrefix("Error: link 1: the new password was refused: "))
        #expect(weak.stderr.contains("(reasons: length) [weak_password, HTTP 422]"))
        #expect(weak.stderr.hasSuffix("[password_rejected]\n"))
        #expect(reset.gotrue.password(of: "ada@example.com") == "old-password")
        // The link still works: a weak password does not use it up.
        let strong = try reset.open(link.url, password: Self.password)
        #expect(strong.status == 0, "\(strong)")
    }

    @Test func anExpiredAccessTokenIsRefreshedFirst() throws {
        let reset = try ResetWorld()
        let link = try reset.recoveryLink(expiresIn: -60)  // exp already passed: read locally, no GET /user
        let result = try reset.open(link.url, password: Self.password)
        #expect(result.status == 0, "\(result)\n\(reset.world.daemonLog())")
        #expect(
            reset.gotrue.requestLines == [
                "POST /auth/v1/token?grant_type=refresh_token", "PUT /auth/v1/user",
                "POST /auth/v1/logout?scope=local",
            ]
        )
        #expect(reset.gotrue.requests[1].header("Authorization") != "Bearer " + link.accessToken)
        #expect(reset.gotrue.password(of: "ada@example.com") == Self.password)
    }

    @Test func thePKCELoopFromResetRequestToTheChangedPassword() throws {
        let reset = try ResetWorld()
        let request = try reset.world.run([
            "reset", "request", "--app", ResetWorld.app, "--email", "ada@example.com",
        ])
        #expect(request.status == 0, "\(request)")
        #expect(
            request.stdout
                == "requested: if a***@example.com has an account with com.example.Reset, a reset email is on its way; "
                + "open its link here.\n"
        )
        let recover = try #require(reset.gotrue.requests.first)
        #expect(recover.target == "/auth/v1/recover?redirect_to=resetapp%3A%2F%2Freset")
        let body = try #require(recover.jsonBody)
        #expect(body["email"] as? String == "ada@example.com" && body["code_challenge_method"] as? String == "s256")
        #expect((body["code_challenge"] as? String)?.count == 43)
        let store = reset.world.state.appendingPathComponent("linkd/pkce").path
        let stored = try FileManager.default.contentsOfDirectory(atPath: store)
        #expect(stored.count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: store + "/" + stored[0])[.posixPermissions]
        #expect(mode as? Int == 0o600)

        let code = try #require(reset.gotrue.pkceCode(for: "ada@example.com"))
        let opened = try reset.open("resetapp://reset?code=\(code)", password: Self.password)
        #expect(opened.status == 0, "\(opened)\n\(reset.world.daemonLog())")
        #expect(reset.gotrue.password(of: "ada@example.com") == Self.password)
        #expect(reset.gotrue.requests.map(\.path)[1] == "/auth/v1/token")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store).isEmpty)  // the verifier was used once

        // A PKCE link linkd did not request (no verifier) is refused before anything is sent.
        let foreign = try reset.open("resetapp://reset?code=\(UUID().uuidString.lowercased())", password: "x")
        #expect(foreign.status == 65)
        #expect(foreign.stderr.contains("linkd did not request this reset for com.example.Reset"))
        #expect(reset.gotrue.requests.count == 4)
    }

    @Test func anAppServicesResetLinkSetsThePassword() throws {
        let reset = try ResetWorld()
        let token = reset.appServices.resetToken(for: "ada@example.com")
        let url = "https://notes.example.com/reset?token=\(token.token)&tokenId=\(token.tokenID)"
        let result = try reset.open(url, password: Self.password)
        #expect(result.status == 0, "\(result)\n\(reset.world.daemonLog())")
        #expect(result.stdout.hasSuffix("the password of your com.example.Reset account was changed\n"))
        #expect(reset.appServices.password(of: "ada@example.com") == Self.password)
        let request = try #require(reset.appServices.requests.first)
        #expect(request.path.hasSuffix("/auth/providers/local-userpass/reset"))
        #expect(request.jsonBody?["tokenId"] as? String == token.tokenID)
        let again = try reset.open(url, password: "another-password")
        #expect(again.status == 65 && again.stderr.contains("UserpassTokenInvalid"), "\(again)")

        let fresh = reset.appServices.resetToken(for: "ada@example.com")
        let freshURL = "https://notes.example.com/reset?token=\(fresh.token)&tokenId=\(fresh.tokenID)"
        let short = try reset.open(freshURL, password: "abc")
        #expect(short.status == 65, "\(short)")
        #expect(short.stderr.hasPrefix("Error: link 1: the new password was refused: "))
        #expect(short.stderr.contains(AppServicesDouble.passwordErrorCode))
        #expect(reset.appServices.password(of: "ada@example.com") == Self.password)
    }

    @Test func resetRequestForAppServicesAndItsUsageErrors() throws {
        let reset = try ResetWorld()
        let appServicesOnly = """
            {"app": "com.example.Realm", "links": [
              {"match": "https://realm.example.com/reset", "format": "appservices", "action": "reset"}],
             "backend": {"kind": "appservices", "url": "\(reset.appServices.baseURL)", "appId": "\(AppServicesDouble.appID)"}}
            """
        try Data(appServicesOnly.utf8).write(to: reset.world.config.appendingPathComponent("linkd/apps.d/realm.json"))
        let sent = try reset.world.run(["reset", "request", "--app", "com.example.Realm", "--email", "ada@example.com"])
        #expect(sent.status == 0, "\(sent)")
        #expect(reset.appServices.sentReset(to: "ada@example.com") != nil)
        #expect(reset.appServices.requests.first?.path.hasSuffix("/local-userpass/reset/send") == true)

        let unknown = try reset.world.run(["reset", "request", "--app", "com.example.Nope", "--email", "a@b.c"])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr
                == "Error: no app 'com.example.Nope' in apps.d (apps: com.example.Notes, com.example.Realm, com.example.Reset)\n"
        )
        let missing = try reset.world.run(["reset", "request", "--app", ResetWorld.app])
        #expect(missing.status == 64 && missing.stderr.hasPrefix("Error: missing expected argument '--email'\n"))
        let badEmail = try reset.world.run(["reset", "request", "--app", ResetWorld.app, "--email", "not an email"])
        #expect(
            badEmail.status == 64
                && badEmail.stderr.hasPrefix("Error: 'not an email' is not a valid value for '--email'\n")
        )
        #expect(reset.gotrue.requests.isEmpty)
    }

    @Test func aBackendThatIsDownGives69AndOneThatKeepsFailingGives75() throws {
        // A port bound and never listened on refuses connections, and no other test's server can take it meanwhile.
        let closed = try ClosedPort()
        defer { closed.close() }
        let down = try ResetWorld(supabaseURL: "http://127.0.0.1:\(closed.port)")
        let link = try down.recoveryLink()
        let unreachable = try down.open(link.url, password: Self.password)
        #expect(unreachable.status == 69, "\(unreachable)")
        #expect(
            unreachable.stderr
                == "Error: link 1: the backend '127.0.0.1' cannot be reached: the connection was refused [backend_unreachable]\n"
        )

        let failing = try ResetWorld()
        let other = try failing.recoveryLink()
        failing.gotrue.failNext(3, status: 503)
        let busy = try failing.open(other.url, password: Self.password)
        #expect(busy.status == 75, "\(busy)")
        #expect(busy.stderr.contains("upstream unavailable"))
        #expect(failing.gotrue.requests.map(\.method) == ["GET", "GET", "GET"])  // retried, never a PUT
    }

    @Test func anAskpassProgramGivesThePasswordAndCanCancel() throws {
        let reset = try ResetWorld()
        let seen = reset.world.root.appendingPathComponent("askpass-argv.txt")
        let askpass = try reset.script(
            "askpass.sh",
            "printf '%s\\n' \"$*\" >> \(seen.path)\nprintf '\(Self.password)\\nignored\\n'\n"
        )
        let link = try reset.recoveryLink()
        let result = try reset.world.run(["open", link.url], extra: ["LINKD_ASKPASS": askpass.path])
        #expect(result.status == 0, "\(result)\n\(reset.world.daemonLog())")
        #expect(reset.gotrue.password(of: "ada@example.com") == Self.password)
        #expect(
            try String(contentsOf: seen, encoding: .utf8)
                == "linkd: New password for ada@example.com (com.example.Reset)\n"
        )

        let cancel = try reset.script("cancel.sh", "exit 1\n")
        let other = try reset.recoveryLink()
        let cancelled = try reset.world.run(["open", other.url], extra: ["LINKD_ASKPASS": cancel.path])
        #expect(cancelled.status == 75, "\(cancelled)")
        #expect(cancelled.stderr == "Error: link 1: no new password was given; nothing changed [cancelled]\n")
        #expect(reset.gotrue.requests.filter { $0.method == "PUT" }.count == 1)

        // An askpass program that is not there is an error naming it, not the person cancelling.
        let third = try reset.recoveryLink()
        let missing = try reset.world.run(["open", third.url], extra: ["LINKD_ASKPASS": "/nonexistent/askpass"])
        #expect(missing.status == 69, "\(missing)")
        #expect(
            missing.stderr
                == "Error: link 1: the askpass program '/nonexistent/askpass' (LINKD_ASKPASS) cannot be found or run; "
                + "nothing changed [askpass_not_found]\n"
        )
        #expect(reset.gotrue.requests.filter { $0.method == "PUT" }.count == 1)
    }

    /// The backend's requests carry the token and the password: a proxy that the environment of the client that
    /// started the daemon names never sees them.
    @Test func proxyVariablesOfTheClientAreIgnored() throws {
        let reset = try ResetWorld()
        let proxy = try TestHTTPServer { _ in .json(502, ["message": "went through the proxy"]) }
        let proxies = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        let link = try reset.recoveryLink()
        let opened = try reset.open(
            link.url,
            password: Self.password,
            extra: Dictionary(uniqueKeysWithValues: proxies.map { ($0, proxy.baseURL) })
        )
        #expect(opened.status == 0, "\(opened)")
        #expect(proxy.requests.isEmpty, "the proxy saw \(proxy.requests.map(\.target))")
        #expect(reset.gotrue.password(of: "ada@example.com") == Self.password)
    }

    /// An account whose address holds markup reaches an askpass dialog as text.
    @Test func theAskpassPromptEscapesMarkup() throws {
        let reset = try ResetWorld()
        reset.gotrue.addUser(email: "x@<b>evil</b>gmail.com", password: "old-password")
        let session = try #require(reset.gotrue.recoverySession(for: "x@<b>evil</b>gmail.com"))
        let askpass = try reset.recordingAskpass("argv.txt", then: "exit 1")
        let link = ResetWorld.mailedLink(accessToken: session.accessToken, refreshToken: session.refreshToken)
        _ = try reset.world.run(["open", link], extra: ["LINKD_ASKPASS": askpass.program.path])
        #expect(
            try String(contentsOf: askpass.record, encoding: .utf8)
                == "linkd: New password for x@&lt;b&gt;evil&lt;/b&gt;gmail.com (com.example.Reset)\n"
        )
    }

    /// With no terminal, no `--password-stdin` and no askpass program, a reset cannot be done here and now: 75.
    @Test func noPasswordSourceIsATemporaryFailure() throws {
        let reset = try ResetWorld()
        let link = try reset.recoveryLink()
        let result = try reset.world.run(["open", link.url], extra: ["PATH": "/nonexistent", "LINKD_ASKPASS": ""])
        #expect(result.status == 75, "\(result)")
        #expect(
            result.stderr
                == "Error: link 1: a reset needs a new password: open the link with 'linkd open' [no_password_source]\n"
        )
        #expect(reset.gotrue.requests.isEmpty)
    }

    @Test func overTLSTheBackendsCAFileIsTrustedAndWithoutItTheConnectionFails() throws {
        let ca = try TestCA.make()
        let trusted = try ResetWorld(tls: (ca, trusted: true))
        let link = try trusted.recoveryLink()
        let result = try trusted.open(link.url, password: Self.password)
        #expect(result.status == 0, "\(result)\n\(trusted.world.daemonLog())")
        #expect(trusted.gotrue.password(of: "ada@example.com") == Self.password)
        #expect(trusted.gotrue.requests.map(\.method) == ["GET", "PUT", "POST"])

        let untrusted = try ResetWorld(tls: (ca, trusted: false))
        let other = try untrusted.recoveryLink()
        let refused = try untrusted.open(other.url, password: Self.password)
        #expect(refused.status == 69, "\(refused)")
        #expect(
            refused.stderr
                == "Error: link 1: the backend '127.0.0.1' cannot be reached: the TLS connection failed: the server's "
                + "certificate is not signed by a trusted CA [backend_unreachable]\n"
        )
        #expect(untrusted.gotrue.requests.isEmpty)
    }

    @Test func onATerminalThePasswordIsAskedTwiceWithoutEchoAndAgainAfterARefusal() throws {
        let reset = try ResetWorld()
        let link = try reset.recoveryLink()
        // A person at a terminal: each answer typed once its prompt shows.
        let (shown, status, problems) = try reset.openOnTerminal(
            link.url,
            typing: [
                ("New password for", 1, "abc"), ("Repeat the new password", 1, "abc"),
                ("New password for", 2, Self.password), ("Repeat the new password", 2, "typo"),
                ("New password for", 3, Self.password), ("Repeat the new password", 3, Self.password),
            ]
        )
        #expect(status == 0, "\(shown)\n\(problems)\n\(reset.world.daemonLog())")
        #expect(
            shown == """
                New password for ada@example.com (com.example.Reset): 
                Repeat the new password: 
                the new password was refused: Password should be at least 6 characters. (reasons: length) \
                [weak_password, HTTP 422]
                New password for ada@example.com (com.example.Reset): 
                Repeat the new password: 
                The passwords do not match; try again.
                New password for ada@example.com (com.example.Reset): 
                Repeat the new password: 
                done: supabase.recovery → com.example.Reset: the password of a***@example.com was changed

                """
        )
        #expect(reset.gotrue.password(of: "ada@example.com") == Self.password)
        #expect(reset.gotrue.requests.filter { $0.method == "PUT" }.count == 2)
    }

    @Test func aDaemonLostAfterThePasswordWasGivenIsNotAskedAgain() throws {
        let reset = try ResetWorld()
        let daemon = try reset.world.startDaemon()
        #expect((try? reset.world.connect()).map { close($0) } != nil)
        let asked = reset.world.root.appendingPathComponent("asked.txt")
        // The daemon dies while the person answers.
        let askpass = try reset.script(
            "askpass-kill.sh",
            "echo asked >> \(asked.path)\nkill -9 \(daemon.pid)\necho \(Self.password)\n"
        )
        let link = try reset.recoveryLink()
        let result = try reset.world.run(["open", link.url], extra: ["LINKD_ASKPASS": askpass.path])
        daemon.waitUntilExit()
        #expect(result.status == 75, "\(result)")
        #expect(
            result.stderr
                == "Error: link 1: the daemon closed the connection during the reset; the password may have changed: "
                + "try signing in with it\n"
        )
        #expect(try String(contentsOf: asked, encoding: .utf8) == "asked\n")  // not sent again, not asked again
        #expect(reset.gotrue.requests.map(\.method) == ["GET"])
    }

    @Test func passwordStdinAndStdinLinksCannotBeMixed() throws {
        let result = try LinkdProcess.run(["open", "--password-stdin", "-"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: '--password-stdin' cannot be used with '-'\n"))
    }
}
