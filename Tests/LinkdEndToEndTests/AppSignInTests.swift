import Foundation
import Glibc
import LinkdClient
import LinkdSystem
import LinkdTestSupport
import LinkdWire
import Testing

/// Sign-ins an app starts through the apps' interface, as `linkd login` starts them: the session reaches the app as
/// a `Session` event, never the link; one that came back from the browser is kept only once the person confirms it
/// in the app's window.
@Suite(.ownThread) struct AppSignInTests {
    struct World {
        let signIn: SignInForwardTests.World
        let bus: PrivateSessionBus
        let daemon: SpawnedProcess
        let client: LinkdClient
        var world: DaemonHarness { signIn.world }

        /// The world, with the app subscribed; its window answers the questions with `answer`, if given, within
        /// `answerTimeLimit` seconds (the daemon's default when `nil`).
        init(answerTimeLimit: Int? = nil, answer: (@Sendable (LinkdQuestion) async -> String?)? = nil) async throws {
            signIn = try SignInForwardTests.World()
            signIn.gotrue.addProviderAccount("github", email: SignInTests.email)
            bus = try PrivateSessionBus(activatable: false)
            var extra = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
            extra["LINKD_APP_ANSWER_TIME_LIMIT"] = answerTimeLimit.map(String.init)
            daemon = try signIn.world.startDaemon(
                extra: extra,
                stderrPath: try signIn.world.logFile()
            )
            #expect(signIn.world.waitForEvent(.busNameTaken, within: .seconds(10)))
            let key = try String(contentsOfFile: signIn.keyFile, encoding: .utf8)
            client = try await LinkdClient.subscribe(
                app: SignInForwardTests.app,
                key: key.trimmingCharacters(in: .newlines),
                busAddress: bus.address,
                answer: answer
            )
        }

        /// Starts a sign-in with GitHub and signs in there in the browser, which comes back to the app's signin
        /// link with `linkd open`: what that printed, and its exit status.
        func signInThroughTheBrowser() async throws -> String {
            let address = try await client.signIn(provider: "github")
            #expect(address.hasPrefix(signIn.gotrue.baseURL + "/auth/v1/authorize?provider=github&"), "\(address)")
            let browser = try SignInProviderTests.makeBrowser(in: signIn.signIn)
            let run = try SpawnedProcess(browser, [address], environment: world.environment)
            run.waitUntilExit()
            return SignInProviderTests.browserOutput(browser)
        }

        /// Signs in through the browser (``signInThroughTheBrowser()``): the session the app then heard, or `nil`,
        /// with the issue recorded, when the browser's `linkd open` failed or no session came.
        func sessionThroughTheBrowser() async throws -> LinkdSession? {
            let opened = try await signInThroughTheBrowser()
            #expect(opened.hasSuffix("status 0\n"), "\(opened)\n\(world.daemonLog())")
            guard case .session(let session) = await client.nextEvent() else {
                Issue.record("no session came")
                return nil
            }
            return session
        }
    }

    @Test func aSignInWithEmailTheAppAskedForReachesItAsItsSession() async throws {
        let world = try await World()
        defer {
            world.client.close()
            world.daemon.terminate()
        }
        try await world.client.signInWithEmail(SignInTests.email)
        let link = try #require(world.signIn.gotrue.magicLinkRedirect(for: SignInTests.email))
        let opened = try world.world.run(["open", link])
        #expect(opened.status == 0, "\(opened)\n\(world.world.daemonLog())")
        guard case .session(let session) = await world.client.nextEvent() else {
            Issue.record("no session came")
            return
        }
        #expect(session.userEmail == SignInTests.email && session.backend == "supabase")
        #expect(world.signIn.gotrue.isSessionLive(accessToken: session.accessToken))
        #expect(!world.world.daemonLog().contains(session.accessToken))
    }

    @Test func aProviderSignInTheAppStartedIsKeptOnceTheAppsWindowConfirmsIt() async throws {
        let asked = Lock<[LinkdQuestion]>([])
        let world = try await World { question in
            asked.withLock { $0.append(question) }
            return question.kind == .confirm ? "yes" : nil
        }
        defer {
            world.client.close()
            world.daemon.terminate()
        }
        guard let session = try await world.sessionThroughTheBrowser() else { return }
        #expect(session.userEmail == SignInTests.email)
        #expect(world.signIn.gotrue.isSessionLive(accessToken: session.accessToken))
        let questions = asked.withLock { $0 }
        #expect(questions.map(\.kind) == [.confirm])
        #expect(questions.first?.prompt == "Sign in to \(SignInForwardTests.app) as \(SignInTests.email)?")
    }

    /// The app's window answers while the app's own default-priority work holds every thread of Swift's pool (as a
    /// busy app may): the question is answered within the daemon's time limit, and the sign-in is kept.
    @Test func aQuestionIsAnsweredWhileTheAppsPoolIsBusy() async throws {
        let world = try await World(answerTimeLimit: 5) { $0.kind == .confirm ? "yes" : nil }
        defer {
            world.client.close()
            world.daemon.terminate()
        }
        let busy = ProcessInfo.processInfo.activeProcessorCount
        // Started from a thread of its own: tasks with no task to inherit from, at the default priority.
        Thread { for _ in 0..<busy { Task { usleep(10_000_000) } } }.start()
        guard let session = try await world.sessionThroughTheBrowser() else { return }
        #expect(session.userEmail == SignInTests.email)
    }

    /// Cancelled in the app's window, the sign-in is refused and no session reaches the app.
    @Test func aProviderSignInTheAppsWindowDeclinesDeliversNothing() async throws {
        let world = try await World { _ in nil }
        defer {
            world.client.close()
            world.daemon.terminate()
        }
        let opened = try await world.signInThroughTheBrowser()
        #expect(opened.contains("was not confirmed; nothing was delivered [not_confirmed]"), "\(opened)")
        #expect(await world.client.nextEvent(within: .seconds(2)) == nil)
    }

    /// An app that answers no questions has no window to confirm in: with no terminal and no notification server,
    /// the sign-in that came back from the browser is refused before anything is sent.
    @Test func aProviderSignInNoOneCanConfirmIsRefused() async throws {
        let world = try await World()
        defer {
            world.client.close()
            world.daemon.terminate()
        }
        let opened = try await world.signInThroughTheBrowser()
        #expect(opened.contains("is kept only once you confirm it"), "\(opened)")
        #expect(opened.contains("[cannot_confirm]"), "\(opened)")
    }
}

extension LinkdClient {
    /// The next event, or `nil` when none comes within `limit` (the client is then closed, which ends its events).
    func nextEvent(within limit: Duration = .seconds(30)) async -> LinkdEvent? {
        let watchdog = Task {
            try await Task.sleep(for: limit)
            close()
        }
        defer { watchdog.cancel() }
        var iterator = events.makeAsyncIterator()
        return await iterator.next()
    }
}
