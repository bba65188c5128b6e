import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// When no client waits for a reset's result, it goes to a desktop notification (`org.freedesktop.Notifications` on a
/// private session bus); a reset interrupted by a crash is not replayed, the person is told to click again.
@Suite(.ownThread) struct ResetNotificationTests {
    private func startDaemon(_ reset: ResetWorld, _ bus: PrivateSessionBus) throws -> SpawnedProcess {
        let daemon = try reset.world.startDaemon(
            extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address],
            stderrPath: reset.world.root.appendingPathComponent("daemon.log").path
        )
        #expect((try? reset.world.connect()).map { close($0) } != nil)
        return daemon
    }

    private func request(_ url: String) -> String {
        #"{"op": "open", "url": "\#(url)", "interactive": true}"# + "\n"
    }

    @Test func aResultWhoseClientHasGoneIsANotification() throws {
        let reset = try ResetWorld()
        let bus = try PrivateSessionBus(activatable: false)
        let server = try bus.startNotificationServer()
        defer { kill(server.pid, SIGKILL) }
        let daemon = try startDaemon(reset, bus)
        defer { kill(daemon.pid, SIGKILL) }
        let link = try reset.recoveryLink()
        let client = try reset.world.connect()
        client.send(request(link.url))
        let question = client.readLine()
        #expect(question == #"{"ask": "password", "prompt": "New password for ada@example.com (com.example.Reset)"}"#)
        client.send(#"{"password": "Canary-pass-7f3a9"}"# + "\n")
        close(client)  // the clicking process is gone before the result
        #expect(reset.world.waitUntil(.seconds(30), folders: [bus.root.path]) { !bus.notificationLines().isEmpty })
        #expect(
            bus.notificationLines()
                == ["Password changed\tcom.example.Reset: the password of a***@example.com was changed"]
        )
        #expect(reset.gotrue.password(of: "ada@example.com") == "Canary-pass-7f3a9")
    }

    @Test func aResetInterruptedByACrashIsNotReplayedAndThePersonIsTold() throws {
        let reset = try ResetWorld()
        let bus = try PrivateSessionBus(activatable: false)
        let server = try bus.startNotificationServer()
        defer { kill(server.pid, SIGKILL) }
        let first = try startDaemon(reset, bus)
        let link = try reset.recoveryLink()
        let client = try reset.world.connect()
        client.send(request(link.url))
        #expect(client.readLine()?.hasPrefix(#"{"ask": "password""#) == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: reset.world.spoolPath).count == 1)
        kill(first.pid, SIGKILL)  // crashes while the person types
        first.waitUntilExit()
        close(client)

        let second = try startDaemon(reset, bus)
        defer { kill(second.pid, SIGKILL) }
        #expect(reset.world.waitUntil(.seconds(30), folders: [bus.root.path]) { !bus.notificationLines().isEmpty })
        #expect(
            bus.notificationLines() == [
                "Password reset interrupted\tcom.example.Reset: linkd stopped before your password was reset; click "
                    + "the link in the email again."
            ]
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: reset.world.spoolPath).isEmpty)
        #expect(reset.gotrue.requests.map(\.method) == ["GET"])  // nothing sent again, no password sent at all
    }

    @Test func aResetCutOffAfterThePasswordWasSentSaysItMayHaveChanged() throws {
        let reset = try ResetWorld()
        let bus = try PrivateSessionBus(activatable: false)
        let server = try bus.startNotificationServer()
        defer { kill(server.pid, SIGKILL) }
        let link = try reset.recoveryLink()
        // What the spool holds when a daemon dies between "sent" and the backend's answer.
        let id = "0123456789abcdef0123456789abcdef"
        try FileManager.default.createDirectory(atPath: reset.world.spoolPath, withIntermediateDirectories: true)
        let entry: [String: Any] = [
            "id": id, "url": link.url, "attempts": 1, "accepted": Date().timeIntervalSince1970, "action": "reset",
            "sent": true,
        ]
        try JSONSerialization.data(withJSONObject: entry).write(
            to: URL(fileURLWithPath: reset.world.spoolPath + "/\(id).json")
        )
        let daemon = try startDaemon(reset, bus)
        defer { kill(daemon.pid, SIGKILL) }
        #expect(reset.world.waitUntil(.seconds(30), folders: [bus.root.path]) { !bus.notificationLines().isEmpty })
        #expect(
            bus.notificationLines() == [
                "Password reset interrupted\tcom.example.Reset: linkd stopped while setting your new password; it may "
                    + "have changed. Try signing in with it, or request a new email."
            ]
        )
        #expect(reset.gotrue.requests.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: reset.world.spoolPath).isEmpty)
    }

    @Test func aClientThatCannotGiveAPasswordLeavesAPKCELinkUsable() throws {
        let reset = try ResetWorld()
        let bus = try PrivateSessionBus(activatable: false)
        let daemon = try startDaemon(reset, bus)
        defer { kill(daemon.pid, SIGKILL) }
        let requested = try reset.world.run(["reset", "request", "--app", ResetWorld.app, "--email", "ada@example.com"])
        #expect(requested.status == 0, "\(requested)")
        let code = try #require(reset.gotrue.pkceCode(for: "ada@example.com"))
        let client = try reset.world.connect()
        client.send(#"{"op": "open", "url": "resetapp://reset?code=\#(code)", "interactive": false}"# + "\n")
        #expect(
            client.readLine()
                == #"{"ok": false, "error": {"kind": "temporary", "reason": "no_password_source", "#
                + #""message": "a reset needs a new password: open the link with 'linkd open'"}}"#
        )
        close(client)
        #expect(reset.gotrue.requests.count == 1)  // only the /recover
        let opened = try reset.open("resetapp://reset?code=\(code)", password: "Canary-pass-7f3a9")
        #expect(opened.status == 0, "\(opened)")
        #expect(reset.gotrue.password(of: "ada@example.com") == "Canary-pass-7f3a9")
    }

    @Test func twoClicksArrivingTogetherMakeOneRun() throws {
        let reset = try ResetWorld()
        let bus = try PrivateSessionBus(activatable: false)
        let daemon = try startDaemon(reset, bus)
        defer { kill(daemon.pid, SIGKILL) }
        let link = try reset.recoveryLink()
        let clients = [try reset.world.connect(), try reset.world.connect()]
        for client in clients { client.send(request(link.url)) }
        // One of them is asked for the password; the other waits for the same run's answer.
        var asked: Int32?
        for client in clients where asked == nil {
            if client.readLine(timeout: .seconds(2))?.hasPrefix(#"{"ask": "password""#) == true { asked = client }
        }
        let first = try #require(asked)
        first.send(#"{"password": "Canary-pass-7f3a9"}"# + "\n")
        let answers = clients.map { $0.readLine() }
        for client in clients { close(client) }
        #expect(answers.allSatisfy { $0?.hasPrefix(#"{"ok": true, "route": "supabase.recovery""#) == true })
        #expect(reset.gotrue.requests.map(\.method) == ["GET", "PUT", "POST"])
    }

    @Test func aRequestSentAheadOfThePasswordIsServedAfterTheReset() throws {
        let reset = try ResetWorld()
        let bus = try PrivateSessionBus(activatable: false)
        let daemon = try startDaemon(reset, bus)
        defer { kill(daemon.pid, SIGKILL) }
        let link = try reset.recoveryLink()
        let client = try reset.world.connect()
        client.send(request(link.url) + request("myapp://note/5"))  // the second before the question is answered
        #expect(client.readLine()?.hasPrefix(#"{"ask": "password""#) == true)
        client.send(#"{"password": "Canary-pass-7f3a9"}"# + "\n")
        let answers = [client.readLine(), client.readLine()]
        close(client)
        #expect(answers[0]?.hasPrefix(#"{"ok": true, "route": "supabase.recovery""#) == true, "\(answers)")
        #expect(answers[1]?.hasPrefix(#"{"ok": true, "route": "myapp://note/{id}""#) == true, "\(answers)")
        #expect(reset.gotrue.password(of: "ada@example.com") == "Canary-pass-7f3a9")
    }

    @Test func aDoubleClickJoinsTheRunningResetAndSendsThePasswordOnce() throws {
        let reset = try ResetWorld()
        let bus = try PrivateSessionBus(activatable: false)
        let daemon = try startDaemon(reset, bus)
        defer { kill(daemon.pid, SIGKILL) }
        let link = try reset.recoveryLink()
        let first = try reset.world.connect()
        first.send(request(link.url))
        #expect(first.readLine()?.hasPrefix(#"{"ask": "password""#) == true)
        let second = try reset.world.connect()
        second.send(request(link.url))  // clicked again while the first asks for the password
        let log = reset.world.root.appendingPathComponent("daemon.log").path
        #expect(
            reset.world.waitUntil(.seconds(5)) {
                ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("opened again while its first run")
            }
        )
        first.send(#"{"password": "Canary-pass-7f3a9"}"# + "\n")
        let answers = [first.readLine(), second.readLine()]
        close(first)
        close(second)
        let done =
            #"{"ok": true, "route": "supabase.recovery", "app": "com.example.Reset", "state": "done", "#
            + #""message": "the password of a***@example.com was changed"}"#
        #expect(answers == [done, done])
        #expect(reset.gotrue.requests.map(\.method) == ["GET", "PUT", "POST"])
    }
}
