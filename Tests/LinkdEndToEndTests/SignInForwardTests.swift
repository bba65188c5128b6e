import Foundation
import Glibc
import LinkdSystem
import LinkdTestSupport
import Testing

/// `{"signin": "forward"}`: the session goes to the app's running subscriber, or waits in the daemon's memory until
/// one subscribes; the subscriber gets the session, never the link.
@Suite(.ownThread) struct SignInForwardTests {
    static let app = "com.example.SignIn"

    /// The sign-in world, its `signin` link forwarding.
    struct World {
        let signIn: SignInTests.World
        var world: DaemonHarness { signIn.world }
        var gotrue: GoTrueDouble { signIn.gotrue }

        init() throws { signIn = try SignInTests.World(delivery: #""forward""#) }

        /// `linkd login --email`, then the link its email leads to.
        func requestedLink() throws -> String {
            let login = try world.run(["login", "--app", SignInForwardTests.app, "--email", SignInTests.email])
            #expect(login.status == 0, "\(login)")
            return try #require(gotrue.magicLinkRedirect(for: SignInTests.email))
        }

        /// The app's subscriber key file, which the daemon writes when it reads the configuration.
        var keyFile: String { world.runtime.path + "/linkd/keys/" + SignInForwardTests.app }

        /// A connection subscribed to the app's links, and with `withKey` (the key read from ``keyFile``) to its
        /// sessions too; the caller closes it.
        func subscribe(withKey: Bool = true) throws -> Int32 {
            let key = try String(contentsOfFile: keyFile, encoding: .utf8).trimmingCharacters(in: .newlines)
            let fd = try world.connect()
            fd.send(
                withKey
                    ? #"{"op": "subscribe", "app": "com.example.SignIn", "key": "\#(key)"}"# + "\n"
                    : #"{"op": "subscribe", "app": "com.example.SignIn"}"# + "\n"
            )
            #expect(fd.readLine() == #"{"ok": true, "app": "com.example.SignIn", "state": "subscribed"}"#)
            return fd
        }

        /// The session a subscriber's line carries, after checking that the line holds no link.
        func session(in line: String?) throws -> [String: Any] {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data((line ?? "").utf8)) as? [String: Any]
            )
            #expect(object["app"] as? String == SignInForwardTests.app)
            #expect(object["route"] as? String == "supabase.pkce")
            #expect(object["url"] == nil && object["fields"] == nil)
            let session = try #require(object["session"] as? [String: Any])
            #expect((session["user"] as? [String: Any])?["email"] as? String == SignInTests.email)
            return session
        }
    }

    @Test func aRunningSubscriberGetsTheSessionOnce() throws {
        let world = try World()
        let link = try world.requestedLink()
        #expect(try world.world.run(["open", "signinapp://unclaimed"]).status == 1)  // the daemon first
        let subscriber = try world.subscribe()
        defer { close(subscriber) }
        let opened = try world.world.run(["open", link])
        #expect(opened.status == 0, "\(opened)\n\(world.world.daemonLog())")
        #expect(
            opened.stdout
                == "delivered: supabase.pkce → com.example.SignIn: signed in: com.example.SignIn as ada@example.com\n"
        )
        let session = try world.session(in: subscriber.readLine())
        let accessToken = try #require(session["access_token"] as? String)
        #expect(world.gotrue.isSessionLive(accessToken: accessToken))
        #expect(subscriber.readLine(timeout: .milliseconds(300)) == nil)  // once
        #expect(world.world.waitUntil(.seconds(5)) { world.world.spooledURLs().isEmpty })
        #expect(!world.world.daemonLog().contains(accessToken))
    }

    @Test func theSessionWaitsInMemoryForASubscriberThatComesLater() throws {
        let world = try World()
        let link = try world.requestedLink()
        let opened = try world.world.run(["open", link])
        #expect(opened.status == 0, "\(opened)\n\(world.world.daemonLog())")
        #expect(
            opened.stdout
                == "queued: supabase.pkce → com.example.SignIn: signed in: com.example.SignIn as ada@example.com; "
                + "the session waits until com.example.SignIn subscribes\n"
        )
        #expect(world.world.spooledURLs() == [link])  // the link's entry, until the session is written
        let subscriber = try world.subscribe()
        let session = try world.session(in: subscriber.readLine())
        close(subscriber)
        let accessToken = try #require(session["access_token"] as? String)
        let refreshToken = try #require(session["refresh_token"] as? String)
        #expect(world.gotrue.isSessionLive(accessToken: accessToken))
        // It waited in memory: the spool lets the link's entry go once the session is written.
        #expect(world.world.waitUntil(.seconds(5)) { world.world.spooledURLs().isEmpty })
        let second = try world.subscribe()
        defer { close(second) }
        #expect(second.readLine(timeout: .milliseconds(300)) == nil)
        let log = world.world.daemonLog()
        #expect(!log.contains(accessToken) && !log.contains(refreshToken))
        #expect(log.contains("session queued for com.example.SignIn"))
    }

    /// Any connection of the user's may subscribe to the app, and gets its links; its sessions go only to a
    /// subscriber that sent the app's key (a 0600 file in a 0700 folder), and a wrong key is refused.
    @Test func onlyASubscriberWithTheAppsKeyGetsASession() throws {
        let world = try World()
        let link = try world.requestedLink()
        #expect(try world.world.run(["open", "signinapp://unclaimed"]).status == 1)  // the daemon first
        let mode = { (path: String) in
            (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
        }
        #expect(mode(world.keyFile) == 0o600)
        #expect(mode(world.world.runtime.path + "/linkd/keys") == 0o700)
        let keyless = try world.subscribe(withKey: false)
        defer { close(keyless) }
        let opened = try world.world.run(["open", link])
        #expect(opened.status == 0, "\(opened)\n\(world.world.daemonLog())")
        #expect(opened.stdout.hasSuffix("the session waits until com.example.SignIn subscribes\n"), "\(opened)")
        #expect(keyless.readLine(timeout: .milliseconds(300)) == nil)

        let wrong = try world.world.connect()
        defer { close(wrong) }
        wrong.send(
            #"{"op": "subscribe", "app": "com.example.SignIn", "key": "\#(String(repeating: "0", count: 64))"}"# + "\n"
        )
        let refusal = try #require(wrong.readLine())
        #expect(
            refusal.hasPrefix(#"{"ok": false, "error": {"kind": "permission", "reason": "wrong_key""#),
            "\(refusal)"
        )

        let keyed = try world.subscribe()
        defer { close(keyed) }
        let session = try world.session(in: keyed.readLine())
        #expect(world.gotrue.isSessionLive(accessToken: try #require(session["access_token"] as? String)))
        #expect(keyless.readLine(timeout: .milliseconds(300)) == nil)
    }

    @Test func aWaitingSessionKeepsTheDaemonUpUntilItsTimeToLivePasses() throws {
        let world = try World()
        let link = try world.requestedLink()
        let daemon = try world.world.startDaemon(
            ["--idle-exit", "2"],
            extra: ["LINKD_FORWARD_TTL": "5"],
            stderrPath: world.world.root.path + "/daemon.txt",
            timeout: .seconds(5)
        )
        // Open connections hold the daemon while `linkd open` starts, however slowly a loaded machine runs it: a new
        // one every 2 s, since the daemon lets a connection that sends nothing go after 5 s.
        let holding = Lock(true)
        let holder = Thread {
            var held = try? world.world.connect()
            while holding.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: 2)
                let next = try? world.world.connect()
                if let held { close(held) }
                held = next
            }
            if let held { close(held) }
        }
        holder.start()
        let opened = try world.world.run(["open", link])
        let queued = ContinuousClock.now
        holding.withLock { $0 = false }
        #expect(opened.stdout.hasPrefix("queued: "), "\(opened)")
        #expect(world.gotrue.liveSessionCount(for: SignInTests.email) == 1)
        daemon.waitUntilExit()  // the time to live passes, the session is signed out, and the daemon goes idle
        // It outlived its 2 s idle exit: the session held it until its 5 s time to live passed.
        #expect(ContinuousClock.now - queued > .seconds(4))
        #expect(daemon.terminationStatus == 0)
        let log = (try? String(contentsOfFile: world.world.root.path + "/daemon.txt", encoding: .utf8)) ?? ""
        #expect(log.contains("expired before com.example.SignIn subscribed"), "\(log)")
        #expect(log.contains("the session for com.example.SignIn was not taken and was signed out"), "\(log)")
        #expect(world.gotrue.liveSessionCount(for: SignInTests.email) == 0)  // not left live at the backend
        #expect(world.gotrue.requestLines.last == "POST /auth/v1/logout?scope=local")
        #expect(world.world.spooledURLs().isEmpty)
    }

    @Test func aStoppingDaemonSignsOutTheSessionsThatWaitInItsMemory() throws {
        let world = try World()
        let link = try world.requestedLink()
        let daemon = try world.world.startDaemon(
            ["--idle-exit", "60"],
            stderrPath: world.world.root.path + "/daemon.txt",
            timeout: .seconds(5)
        )
        let opened = try world.world.run(["open", link])
        #expect(opened.stdout.hasPrefix("queued: "), "\(opened)")
        #expect(world.gotrue.liveSessionCount(for: SignInTests.email) == 1)
        let stopping = ContinuousClock.now
        kill(daemon.pid, SIGTERM)
        daemon.waitUntilExit()
        // It does not wait out its drain deadline (10 s) for a session no one will take.
        #expect(ContinuousClock.now - stopping < .seconds(8))
        #expect(daemon.terminationStatus == 0)
        let log = (try? String(contentsOfFile: world.world.root.path + "/daemon.txt", encoding: .utf8)) ?? ""
        #expect(log.contains("the daemon is stopping before com.example.SignIn subscribed"), "\(log)")
        #expect(log.contains("the session for com.example.SignIn was not taken and was signed out"), "\(log)")
        #expect(world.gotrue.liveSessionCount(for: SignInTests.email) == 0)
        // Its link's entry is gone: no next daemon tells the person a second time.
        #expect(world.world.spooledURLs().isEmpty)
    }
}
