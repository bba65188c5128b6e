import Foundation
import LinkdTestSupport
import Testing

/// The daemon in the shipped unit's sandbox, under an unprivileged user's `systemd --user`, does all its work: it
/// reads apps.d again when reloaded, runs a reset the client asks the password for through askpass, signs in, and
/// reaches an app over D-Bus.
@Suite(.ownThread, .serialized, .enabled(if: SystemdUserManager.isAvailable, "needs root, unshare and systemd"))
struct SandboxedDaemonTests {
    private func write(_ config: String, as name: String, in manager: SystemdUserManager) throws {
        let apps = manager.home.appendingPathComponent(".config/linkd/apps.d")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        try Data(config.utf8).write(to: apps.appendingPathComponent(name))
    }

    @Test func aReloadReadsAppsDAgain() throws {
        let manager = try SystemdUserManager(daemonArguments: "")
        try manager.installApp(running: "#!/bin/sh\ncat > /dev/null\n")
        #expect(try manager.run(["open", "myapp://note/1"]).status == 0)
        #expect(try manager.run(["open", "otherapp://open/x"]).status == 1, "no app claims it yet")
        let program = manager.home.appendingPathComponent("program.sh").path
        try write(
            #"{"app": "com.example.Other", "links": [{"match": "otherapp://open/{id}", "action": {"exec": ["\#(program)"]}}]}"#,
            as: "other.json",
            in: manager
        )
        #expect(try manager.systemctl(["reload", "linkd.service"]).status == 0)
        let opened = try manager.run(["open", "otherapp://open/x"])
        #expect(opened.status == 0, "\(opened)\n\(manager.output)")
        #expect(opened.stdout == "delivered: otherapp://open/{id} → com.example.Other\n")
    }

    @Test func aResetWithAskpassAndASignInRunInTheSandbox() throws {
        let manager = try SystemdUserManager(daemonArguments: "")
        let gotrue = try GoTrueDouble()
        gotrue.addUser(email: "ada@example.com", password: "old-password")
        let record = manager.home.appendingPathComponent("session.txt")
        try manager.installApp(running: "#!/bin/sh\ncat > \(record.path)\n")
        let program = manager.home.appendingPathComponent("program.sh").path
        try write(
            """
            {"app": "com.example.Reset", "links": [
              {"match": "resetapp://reset", "format": "supabase", "action": "reset"},
              {"match": "resetapp://signin", "format": "supabase", "action": {"signin": {"exec": ["\(program)"]}}}],
             "backend": {"kind": "supabase", "url": "\(gotrue.baseURL)", "apiKey": "\(GoTrueDouble.apiKey)"}}
            """,
            as: "reset.json",
            in: manager
        )
        let askpass = manager.home.appendingPathComponent("askpass.sh")
        try ProgramFile.write("#!/bin/sh\necho Canary-pass-sandbox-1\n", to: askpass)
        let session = try #require(gotrue.recoverySession(for: "ada@example.com"))
        let link =
            "resetapp://reset#access_token=\(session.accessToken)&refresh_token=\(session.refreshToken)&type=recovery"
        let reset = try manager.run(["open", link], extra: ["LINKD_ASKPASS": askpass.path])
        #expect(reset.status == 0, "\(reset)\n\(manager.output)")
        #expect(gotrue.password(of: "ada@example.com") == "Canary-pass-sandbox-1")

        let config = ["XDG_CONFIG_HOME": manager.home.path + "/.config"]
        let login = try manager.run(
            ["login", "--app", "com.example.Reset", "--email", "ada@example.com"],
            extra: config
        )
        #expect(login.status == 0, "\(login)")
        let signin = try #require(gotrue.magicLinkRedirect(for: "ada@example.com"))
        let opened = try manager.run(["open", signin])
        #expect(opened.status == 0, "\(opened)\n\(manager.output)")
        // The program's file appears before its line is written in it: the wait is for the line.
        let delivered = { (try? String(contentsOf: record, encoding: .utf8)) ?? "" }
        let events = FileEvents([manager.home.path])
        #expect(
            events.wait(until: .now + .seconds(10)) { delivered().contains(#""access_token""#) },
            "the program got the session"
        )
    }

    @Test(.disabled(if: Sanitizer.isActive, Sanitizer.reason))
    func theDBusActionActivatesAnAppOnTheSessionBus() throws {
        let manager = try SystemdUserManager(daemonArguments: "")
        let opened = try manager.installDBusApp()
        try write(
            #"{"app": "org.example.LinkdTest", "links": [{"match": "myapp://share/{id}", "action": {"dbus": "\#(PrivateSessionBus.appID)"}}]}"#,
            as: "dbus.json",
            in: manager
        )
        let result = try manager.run(["open", "myapp://share/42"])
        #expect(result.status == 0, "\(result)\n\(manager.output)")
        #expect(((try? String(contentsOf: opened, encoding: .utf8)) ?? "") == "myapp://share/42\n")
    }
}
