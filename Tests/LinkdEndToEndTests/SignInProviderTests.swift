import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// `linkd login --provider`: the browser (a stand-in that does what a browser does with GoTrue's `/authorize` page:
/// follows its redirect and hands the app's link to `linkd open`, as the desktop would) signs in at the GoTrue
/// double's simulated provider, and the daemon exchanges the returning code with the verifier `linkd login` stored.
@Suite(.ownThread) struct SignInProviderTests {
    /// A `$BROWSER` program: fetches the address without following redirects and runs `linkd open` on where the
    /// redirect leads, its output in `browser-open.txt` beside it.
    static func makeBrowser(in world: SignInTests.World) throws -> String {
        let path = world.world.root.appendingPathComponent("browser.py").path
        let script = BrowserStandIn.followingRedirect(then: openLocation)
        try ProgramFile.write(script, to: URL(fileURLWithPath: path))
        return path
    }

    /// The end of a browser stand-in's script: `linkd open` on `location`, what it prints and its exit status in
    /// `browser-open.txt` beside the script, as the desktop hands a browser's redirect to linkd.
    static let openLocation = """
        with open(sys.argv[0] + "-open.txt", "w") as output:
            status = subprocess.run(["\(LinkdProcess.executable.path)", "open", location], stdout=output, stderr=output
                                    ).returncode
            output.write("status %d\\n" % status)

        """

    /// What the browser stand-in's `linkd open` printed, once it has exited (up to 10 s: read again at each change
    /// of its folder).
    static func browserOutput(_ browser: String) -> String {
        let file = browser + "-open.txt"
        let read = { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
        let folder = String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)])
        _ = FileEvents([folder]).wait(until: .now + .seconds(10)) { read().contains("status ") }
        return read()
    }

    static func world() throws -> SignInTests.World {
        let world = try SignInTests.World()
        world.gotrue.addProviderAccount("github", email: SignInTests.email)
        return world
    }

    @Test func theBrowserSignsInAtTheProviderAndTheProgramGetsTheSessionOnce() throws {
        let world = try Self.world()
        let browser = try Self.makeBrowser(in: world)
        // On a terminal, where the sign-in that comes back is confirmed (Enter keeps it).
        let login = try world.runOnTerminal(
            ["login", "--app", SignInTests.app, "--provider", "github"],
            answer: "",
            extra: ["BROWSER": browser]
        )
        #expect(login.status == 0, "\(login)\n\(world.world.daemonLog())")
        #expect(login.stdout.contains("opened \(browser) to sign in to com.example.SignIn with github; "))
        #expect(login.stdout.contains("Signed in to com.example.SignIn as ada@example.com — keep? [Y/n]"), "\(login)")
        #expect(login.stdout.hasSuffix("signed in: com.example.SignIn with github\r\n"), "\(login)")
        // linkd login returns once the code has been exchanged; linkd open may still be on its way out.
        let opened = Self.browserOutput(browser)
        #expect(
            opened
                == "done: supabase.pkce → com.example.SignIn: signed in: com.example.SignIn as ada@example.com\n"
                + "status 0\n"
        )

        let authorize = try #require(world.gotrue.requests.first)
        #expect(authorize.method == "GET")
        #expect(authorize.path == "/auth/v1/authorize")
        #expect(authorize.query["provider"] == "github")
        #expect(authorize.query["redirect_to"] == "signinapp://signin")
        #expect(authorize.query["code_challenge_method"] == "s256")
        #expect(authorize.query["code_challenge"]?.count == 43)
        #expect(authorize.header("apikey") == nil)  // the browser's request: no key, as GoTrue asks for none there
        #expect(login.stdout.contains(world.gotrue.baseURL + authorize.target))
        let exchanges = world.gotrue.requests.filter { $0.path == "/auth/v1/token" }
        #expect(exchanges.count == 1)
        #expect(exchanges.first?.query["grant_type"] == "pkce")

        #expect(world.world.waitUntil(.seconds(10)) { world.world.receivedPayloads().count == 1 })
        let payload = try #require(world.world.receivedPayloads().first)
        #expect(payload["url"] == nil && payload["fields"] == nil)
        let session = try #require(payload["session"] as? [String: Any])
        let accessToken = try #require(session["access_token"] as? String)
        #expect(world.gotrue.isSessionLive(accessToken: accessToken))
        #expect((session["user"] as? [String: Any])?["email"] as? String == SignInTests.email)
        #expect(world.storedVerifiers.isEmpty)
        let code = try #require(exchanges.first?.jsonBody?["auth_code"] as? String)
        let surfaces = world.leakSurfaces()
        #expect(!surfaces.contains(accessToken) && !surfaces.contains(code))
        // One code exchanged (above) is one session: no other can be delivered.
        #expect(world.world.receivedPayloads().count == 1)
    }

    /// The person says no at the terminal of `linkd login`: the session that came back is signed out, nothing is
    /// delivered, and the login says why.
    @Test func aSignInTheWaitingLoginDeclinesIsSignedOutAndNothingDelivered() throws {
        let world = try Self.world()
        let browser = try Self.makeBrowser(in: world)
        let login = try world.runOnTerminal(
            ["login", "--app", SignInTests.app, "--provider", "github"],
            answer: "n",
            extra: ["BROWSER": browser]
        )
        #expect(login.status == 65, "\(login)\n\(world.world.daemonLog())")
        #expect(login.stdout.contains("keep? [Y/n]"), "\(login)")
        #expect(
            login.stdout.contains(
                "Error: the sign-in to com.example.SignIn as ada@example.com was not confirmed; nothing was delivered"
            ),
            "\(login)"
        )
        #expect(Self.browserOutput(browser).contains("[not_confirmed]\nstatus 65\n"))
        #expect(world.gotrue.requests.contains { $0.path == "/auth/v1/logout" })
        #expect(world.world.receivedPayloads().isEmpty)
    }

    /// The address of a sign-in started in the browser shows in the browser's command line: another local user may
    /// complete it with their own account and mail the person the callback. With no `linkd login` waiting to confirm
    /// it, the callback is one linkd did not start: clicked (no terminal, no notification server with buttons), it is
    /// refused before the code is exchanged.
    @Test func aCallbackNoLoginWaitsForIsRefusedWhenNoOneCanConfirmIt() throws {
        let world = try Self.world()
        let output = world.world.root.path + "/login.txt"
        let login = try world.world.start(
            ["login", "--app", SignInTests.app, "--provider", "github"],
            extra: ["BROWSER": "/bin/true"],
            stdoutPath: output
        )
        #expect(
            world.world.waitUntil(.seconds(10)) {
                ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("Ctrl-C cancels")
            }
        )
        kill(login.pid, SIGKILL)  // gone without forgetting its verifier
        login.waitUntilExit()
        #expect(world.storedVerifiers.count == 1)
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let address = try #require(
            printed.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("http") }.map(String.init)
        )
        let browser = try Self.makeBrowser(in: world)
        let opening = try world.world.start([address], executable: browser)
        opening.waitUntilExit()
        #expect(Self.browserOutput(browser).contains("[cannot_confirm]\nstatus 65\n"), "\(Self.browserOutput(browser))")
        #expect(!world.gotrue.requests.contains { $0.path == "/auth/v1/token" })
        #expect(world.world.receivedPayloads().isEmpty)
    }

    /// Starts `linkd login --provider github` (a browser that opens nothing) with its output in `output` and `errors`,
    /// and returns once it says that it waits.
    static func startLogin(_ world: SignInTests.World, output: String, errors: String) throws -> SpawnedProcess {
        let login = try world.world.start(
            ["login", "--app", SignInTests.app, "--provider", "github"],
            extra: ["BROWSER": "/bin/true"],
            stdoutPath: output,
            stderrPath: errors
        )
        #expect(
            world.world.waitUntil(.seconds(10)) {
                ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("Ctrl-C cancels")
            }
        )
        return login
    }

    /// GoTrue hands a cancel at the provider on to the app's link as it came (`error=user_cancelled_authorize`, no
    /// code of its own): the waiting `linkd login` ends at once, saying so, and its verifier is spent. An error of the
    /// backend's own (`signup_disabled`) is said in its words.
    @Test func aCancelAtTheProviderEndsTheWaitingLoginAtOnce() throws {
        let world = try Self.world()
        let output = world.world.root.path + "/login.txt"
        let login = try Self.startLogin(world, output: output, errors: output)
        let cancel =
            "signinapp://signin?error=user_cancelled_authorize&error_description=#error=user_cancelled_authorize&sb="
        let opened = try world.world.run(["open", cancel])
        // Timed from the cancel's answer, when the daemon has told the waiting login: the first `linkd open` also
        // starts the daemon, which a loaded machine can take seconds over.
        let started = ContinuousClock.now
        #expect(opened.status == 65, "\(opened)")
        #expect(opened.stderr.hasSuffix("was cancelled; nothing was signed in [signin_cancelled]\n"), "\(opened)")
        login.waitUntilExit()
        // At once: well before the 10 minutes a login waits; the bound holds for the plain build (an instrumented one
        // runs several times slower, and took 3.7 s under AddressSanitizer on a loaded runner).
        if TimeBounds.hold { #expect(ContinuousClock.now - started < .seconds(3), "the login ended at once") }
        #expect(login.terminationStatus == 65)
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(
            printed.contains("the sign-in to com.example.SignIn was cancelled; nothing was signed in"),
            "\(printed)"
        )
        #expect(world.storedVerifiers.isEmpty)
        let refused = try world.world.run([
            "open",
            "signinapp://signin?error=access_denied&error_code=signup_disabled"
                + "&error_description=Signups+not+allowed+for+this+instance",
        ])
        #expect(
            refused.stderr
                == "Error: link 1: the sign-in to com.example.SignIn failed (signup_disabled): Signups not allowed for "
                + "this instance [provider_error]\n",
            "\(refused)"
        )
        #expect(!world.gotrue.requests.contains { $0.path == "/auth/v1/token" })
    }

    /// Where the desktop has a portal, the sign-in's address goes to the browser through it (`OpenURI` over D-Bus),
    /// standing in no process's command line; `$BROWSER` is not run.
    @Test func theDesktopPortalOpensTheAddressWhenThereIsOne() throws {
        let world = try Self.world()
        let bus = try PrivateSessionBus(activatable: false)
        let portal = try bus.startPortal()
        defer { kill(portal.pid, SIGKILL) }
        let marker = world.world.root.path + "/browser-ran"
        let output = world.world.root.path + "/login.txt"
        let login = try world.world.start(
            ["login", "--app", SignInTests.app, "--provider", "github"],
            extra: ["BROWSER": "/usr/bin/touch \(marker)", "DBUS_SESSION_BUS_ADDRESS": bus.address],
            stdoutPath: output
        )
        defer { kill(login.pid, SIGINT) }
        #expect(
            world.world.waitUntil(.seconds(10)) {
                ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("Ctrl-C cancels")
            }
        )
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(printed.hasPrefix("opened the desktop's browser to sign in to com.example.SignIn with github; "))
        let opened = try #require(bus.portalOpenedLinks().first)
        #expect(opened.hasPrefix(world.gotrue.baseURL + "/auth/v1/authorize?provider=github&"))
        #expect(printed.contains(opened))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func ctrlCForgetsTheVerifierSoTheCallbackThatComesLaterIsRefused() throws {
        let world = try Self.world()
        let output = world.world.root.path + "/login.txt"
        let errors = world.world.root.path + "/login-errors.txt"
        let login = try Self.startLogin(world, output: output, errors: errors)
        #expect(world.storedVerifiers.count == 1)
        kill(login.pid, SIGINT)
        login.waitUntilExit()
        #expect(login.terminationStatus == 75)
        #expect(
            (try? String(contentsOfFile: errors, encoding: .utf8))
                == "Error: cancelled: the sign-in to com.example.SignIn was forgotten\n"
        )
        #expect(world.storedVerifiers.isEmpty)

        // The person signs in at the provider after all: the code comes back, and no verifier is there for it.
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let address = try #require(
            printed.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("http") }.map(String.init)
        )
        let browser = try Self.makeBrowser(in: world)
        let browserErrors = world.world.root.path + "/browser-errors.txt"
        let opening = try world.world.start([address], executable: browser, stderrPath: browserErrors)
        opening.waitUntilExit()
        let opened = Self.browserOutput(browser)
        #expect(
            opened.contains("[not_started_by_linkd]\nstatus 65\n"),
            "\(opened)\(opening.terminationStatus): \((try? String(contentsOfFile: browserErrors, encoding: .utf8)) ?? "")"
        )
        #expect(!world.gotrue.requests.contains { $0.path == "/auth/v1/token" })
        #expect(world.world.receivedPayloads().isEmpty)
    }

    @Test func withNoBrowserToStartNothingIsKept() throws {
        let world = try Self.world()
        let login = try world.world.run(
            ["login", "--app", SignInTests.app, "--provider", "github"],
            extra: ["BROWSER": "", "PATH": "/nonexistent"]
        )
        #expect(login.status == 69)
        #expect(login.stderr.hasPrefix("Error: no browser can be started (set BROWSER, or install xdg-utils); "))
        #expect(world.storedVerifiers.isEmpty)
        #expect(world.gotrue.requests.isEmpty)
    }

    @Test(arguments: [
        (["--provider", "Git Hub"], "Error: 'Git Hub' is not a valid value for '--provider'"),
        (["--provider", String(repeating: "a", count: 65)], "is not a valid value for '--provider'"),
        (["--provider", "github", "--email", "ada@example.com"], "'--email' cannot be used with '--provider'"),
        ([], "Error: missing expected argument '--email or --provider'"),
    ])
    func aBadProviderOrMethodIsAUsageError(arguments: [String], message: String) throws {
        let world = try Self.world()
        let login = try world.world.run(["login", "--app", SignInTests.app] + arguments)
        #expect(login.status == 64)
        #expect(login.stderr.contains(message), "\(login.stderr)")
        #expect(world.gotrue.requests.isEmpty && world.storedVerifiers.isEmpty)
    }
}
