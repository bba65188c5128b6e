import Foundation
import LinkdClient
import LinkdSystem
import LinkdTestSupport
import Testing

/// Sign in with Apple started by the app through the apps' interface (`SignIn(app, "apple")`), as
/// `linkd login --provider apple` starts it: the app gets Apple's authorization page with a state and a hashed nonce
/// from a secret linkd keeps; the browser's Apple answer comes back through the Return URL page to the app's `apple`
/// link, and once the app's window confirms it the session reaches the app as its `Session` event — the id token and
/// the secret never do.
@Suite(.ownThread) struct AppSignInAppleTests {
    @Test func anAppleSignInTheAppStartedReachesItAsItsSession() async throws {
        let apple = try SignInAppleTests.World(delivery: #""forward""#)
        let world = apple.world
        let bus = try PrivateSessionBus(activatable: false)
        let daemon = try world.startDaemon(onBus: bus)
        defer { daemon.terminate() }
        let keyFile = world.runtime.path + "/linkd/keys/" + SignInTests.app
        let key = try String(contentsOfFile: keyFile, encoding: .utf8).trimmingCharacters(in: .newlines)
        let asked = Lock<[LinkdQuestion]>([])
        let client = try await LinkdClient.subscribe(app: SignInTests.app, key: key, busAddress: bus.address) {
            question in
            asked.withLock { $0.append(question) }
            return question.kind == .confirm ? "yes" : nil
        }
        defer { client.close() }

        let address = try await client.signIn(provider: "apple")
        #expect(address.hasPrefix(apple.apple.authorizeURL + "?"), "\(address)")
        let query = Dictionary(
            uniqueKeysWithValues: (URLComponents(string: address)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        )
        #expect(query["client_id"] == SignInAppleTests.clientID && query["redirect_uri"] == apple.returnURL)
        #expect(query["state"]?.count == 43 && query["nonce"]?.count == 64)
        #expect(apple.storedSecrets.count == 1)

        let browser = try apple.makeBrowser()
        let run = try SpawnedProcess(browser, [address], environment: world.environment)
        run.waitUntilExit()
        let opened = SignInProviderTests.browserOutput(browser)
        #expect(opened.hasSuffix("status 0\n"), "\(opened)\n\(world.daemonLog())")
        guard case .session(let session) = await client.nextEvent() else {
            Issue.record("no session came\n\(world.daemonLog())")
            return
        }
        #expect(session.userEmail == SignInTests.email)
        #expect(apple.gotrue.isSessionLive(accessToken: session.accessToken))
        #expect(asked.withLock { $0.map(\.kind) } == [.confirm])
        #expect(apple.storedSecrets.isEmpty)  // used up by the sign-in
        let link = try String(contentsOfFile: browser + "-link.txt", encoding: .utf8)
        let idToken = try #require(
            URLComponents(string: "x://y?" + (link.split(separator: "#").last.map(String.init) ?? ""))?.queryItems?
                .first { $0.name == "id_token" }?.value
        )
        let leaks = apple.signIn.leakSurfaces() + world.daemonLog()
        for secret in [session.accessToken, idToken] { #expect(!leaks.contains(secret)) }
    }

    /// An app with no `apple` section, or no `apple` link, is told why; nothing is stored.
    @Test func anAppThatCannotSignInWithAppleIsToldWhy() async throws {
        let world = try await AppSignInTests.World()
        defer {
            world.client.close()
            world.daemon.terminate()
        }
        do throws(LinkdClientError) {
            _ = try await world.client.signIn(provider: "apple")
            Issue.record("Sign in with Apple was started for an app without its apple section")
        } catch {
            #expect(error.name == "io.linkd.Linkd1.Error.NotPossible")
            #expect(error.message.contains("has no 'apple' section"), "\(error.message)")
        }
    }
}
