import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// A sign-in linkd did not start, clicked (so `linkd open` has no terminal), is confirmed in a desktop notification
/// with buttons — a real `dbus-daemon` session bus, and a notification server that shows buttons and presses one.
@Suite(.ownThread) struct SignInNotificationTests {
    /// Opens a magic link for ada@example.com that linkd did not ask for, with no terminal, to a daemon on a session
    /// bus whose notification server answers as `answer` says.
    static func openClicked(
        answering answer: PrivateSessionBus.NotifyAnswer
    ) throws -> (world: SignInTests.World, bus: PrivateSessionBus, opened: LinkdProcess.Output) {
        let world = try SignInTests.World()
        let bus = try PrivateSessionBus(activatable: false)
        let server = try bus.startNotificationServer(answering: answer)
        defer { kill(server.pid, SIGKILL) }
        let daemon = try world.world.startDaemon(
            extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address],
            stderrPath: world.world.root.appendingPathComponent("daemon.txt").path
        )
        defer { kill(daemon.pid, SIGKILL) }
        let hash = try #require(world.gotrue.recoveryTokenHash(for: SignInTests.email))
        return (world, bus, try world.open("signinapp://signin?token_hash=\(hash)&type=magiclink"))
    }

    @Test func theSignInButtonSignsIn() throws {
        let (world, bus, opened) = try Self.openClicked(answering: .pressing(.accept))
        #expect(opened.status == 0, "\(opened)")
        #expect(opened.stdout.contains("signed in: com.example.SignIn as ada@example.com"), "\(opened)")
        #expect(
            bus.notificationLines().first
                == "Sign in to com.example.SignIn?\tSign in to com.example.SignIn as ada@example.com? Only if you "
                + "asked for this email."
        )
        #expect(world.world.waitUntil(.seconds(10)) { world.world.receivedPayloads().count == 1 })
        let session = try #require(world.world.receivedPayloads().first?["session"] as? [String: Any])
        let accessToken = try #require(session["access_token"] as? String)
        #expect(world.gotrue.isSessionLive(accessToken: accessToken))
    }

    @Test func theCancelButtonSignsTheSessionOutAndDeliversNothing() throws {
        let (world, _, opened) = try Self.openClicked(answering: .pressing(.decline))
        #expect(opened.status == 65, "\(opened)")
        #expect(opened.stderr.hasSuffix("[not_confirmed]\n"), "\(opened)")
        #expect(world.gotrue.requestLines == ["POST /auth/v1/verify", "POST /auth/v1/logout?scope=local"])
        #expect(world.world.receivedPayloads().isEmpty)
    }

    /// Anyone on the session bus can emit `ActionInvoked`: a second connection that does, with the very key linkd sent
    /// for the button and with a guessed one, signs nothing in; the person's dismissal is the answer.
    @Test func anotherConnectionEmittingActionInvokedSignsNothingIn() throws {
        let (world, bus, opened) = try Self.openClicked(answering: .forgedThenDismissed)
        #expect(opened.status == 65, "\(opened)")
        #expect(opened.stderr.hasSuffix("[not_confirmed]\n"), "\(opened)")
        let forger = try String(contentsOf: bus.forgedSignals, encoding: .utf8)
        #expect(forger.hasPrefix(":"), "the second connection emitted its signals")
        #expect(world.gotrue.requestLines == ["POST /auth/v1/verify", "POST /auth/v1/logout?scope=local"])
        #expect(world.world.receivedPayloads().isEmpty)
    }

    @Test func aServerWithoutButtonsCannotAskSoNothingIsSent() throws {
        let (world, _, opened) = try Self.openClicked(answering: .id)
        #expect(opened.status == 65, "\(opened)")
        #expect(opened.stderr.hasSuffix("[cannot_confirm]\n"), "\(opened)")
        #expect(world.gotrue.requests.isEmpty)
    }
}
