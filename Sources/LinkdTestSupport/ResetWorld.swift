package import Foundation
import Glibc

/// A daemon world with an app whose reset links go to the GoTrue and App Services doubles:
/// `resetapp://reset` (Supabase) and `https://notes.example.com/reset` (App Services).
package final class ResetWorld: Sendable {
    /// The app's name.
    package static let app = "com.example.Reset"

    /// The daemon world the app is installed in.
    package let world: DaemonHarness
    /// The Supabase backend, with the user `ada@example.com` (password `old-password`).
    package let gotrue: GoTrueDouble
    /// The App Services backend, with the same user.
    package let appServices: AppServicesDouble
    /// TLS in front of the GoTrue double, when the world uses it.
    package let proxy: TLSProxy?

    /// - Parameters:
    ///   - supabaseURL: the Supabase backend's URL (the GoTrue double's unless a test points elsewhere).
    ///   - tls: serve the GoTrue double over TLS with the test CA's server certificate; `trusted` names the CA in
    ///     the backend's `caFile`.
    ///   - emailCodes: the Supabase backend says its emails carry a 6-digit code (`"emailCodes": true`).
    /// - Throws: when a double, the proxy or the world cannot be set up.
    package init(supabaseURL: String? = nil, tls: (ca: TestCA, trusted: Bool)? = nil, emailCodes: Bool = false) throws {
        world = try DaemonHarness()
        let gotrue = try GoTrueDouble()
        self.gotrue = gotrue
        appServices = try AppServicesDouble()
        proxy = try tls.map {
            try TLSProxy(forwardingTo: gotrue.port, certificate: $0.ca.serverCertificate, key: $0.ca.serverKey)
        }
        gotrue.addUser(email: "ada@example.com", password: "old-password")
        appServices.addUser(email: "ada@example.com", password: "old-password")
        let ca =
            (tls.flatMap { $0.trusted ? #", "caFile": "\#($0.ca.certificate)""# : nil } ?? "")
            + (emailCodes ? #", "emailCodes": true"# : "")
        let config = """
            {"app": "\(Self.app)", "links": [
              {"match": "resetapp://reset", "format": "supabase", "action": "reset"},
              {"match": "https://notes.example.com/reset", "format": "appservices", "action": "reset",
               "backend": {"kind": "appservices", "url": "\(appServices.baseURL)", "appId": "\(AppServicesDouble.appID)"}}],
             "backend": {"kind": "supabase", "url": "\(supabaseURL ?? proxy?.baseURL ?? gotrue.baseURL)", "apiKey": "\(GoTrueDouble.apiKey)"\(ca)}}
            """
        try Data(config.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/reset.json"))
    }

    /// A recovery link as GoTrue's redirect leaves it: `resetapp://reset#access_token=…&…&type=recovery`.
    ///
    /// - Parameter expiresIn: seconds until the access token expires (negative: already expired).
    /// - Throws: ``HarnessError/noRecoverySession(email:)`` when the double has no session for the user.
    package func recoveryLink(
        expiresIn: Int = 3600
    ) throws(HarnessError) -> (url: String, accessToken: String, refreshToken: String) {
        let email = "ada@example.com"
        guard let session = gotrue.recoverySession(for: email, expiresIn: expiresIn) else {
            throw .noRecoverySession(email: email)
        }
        let url =
            "resetapp://reset#access_token=\(session.accessToken)&expires_at=1700003600&expires_in=3600"
            + "&refresh_token=\(session.refreshToken)&token_type=bearer&type=recovery"
        return (url, session.accessToken, session.refreshToken)
    }

    /// A link mailed as a recovery link with a session's tokens, whoever made the session:
    /// `resetapp://reset#access_token=…&refresh_token=…&type=recovery`.
    package static func mailedLink(accessToken: String, refreshToken: String) -> String {
        "resetapp://reset#access_token=\(accessToken)&refresh_token=\(refreshToken)&type=recovery"
    }

    /// An askpass program that appends its arguments, as one line, to `record` (in the world's folder), then runs
    /// `then` (`exit 1` cancels, `echo PASSWORD` answers).
    ///
    /// - Returns: the program, and the file it writes.
    /// - Throws: when it cannot be written.
    package func recordingAskpass(_ record: String, then: String) throws -> (program: URL, record: URL) {
        let file = world.root.appendingPathComponent(record)
        let program = try script("askpass-\(record).sh", "printf '%s\\n' \"$*\" >> \(file.path)\n\(then)\n")
        return (program, file)
    }

    /// Writes an executable `/bin/sh` script `name` with `body` into the world's folder.
    ///
    /// - Returns: the script's URL.
    /// - Throws: when it cannot be written.
    package func script(_ name: String, _ body: String) throws -> URL {
        try world.script(name, body)
    }

    /// `linkd open --password-stdin URL` with `password` on stdin.
    ///
    /// - Throws: when `linkd` cannot be started.
    package func open(_ url: String, password: String, extra: [String: String] = [:]) throws -> LinkdProcess.Output {
        try world.run(["open", "--password-stdin", url], stdin: Data((password + "\n").utf8), extra: extra)
    }

    /// `linkd open URL` on a terminal (script(1) gives it a pseudo-terminal) with a person typing: each answer's
    /// `text` is typed once its `prompt` has shown `count` times, and the run ends once linkd says `done:` or
    /// `Error:` (bounded at 120 s: a typist that gives up leaves no one waiting).
    ///
    /// - Returns: what the terminal showed (without CRs), the shell's exit status, and what went to its standard error.
    /// - Throws: when the scripts cannot be written or the shell cannot be started.
    package func openOnTerminal(
        _ url: String,
        typing answers: [(prompt: String, count: Int, text: String)]
    ) throws -> (shown: String, status: Int32, problems: String) {
        try runOnTerminal(["open", url], typing: answers)
    }

    /// `linkd ARGUMENTS` on a terminal, typed at as ``openOnTerminal(_:typing:)`` types, with `extra` environment;
    /// the run ends once a line matches one of `endings` (grep patterns).
    package func runOnTerminal(
        _ arguments: [String],
        typing answers: [(prompt: String, count: Int, text: String)],
        extra: [String: String] = [:],
        endings: [String] = ["^done:", "Error:"]
    ) throws -> (shown: String, status: Int32, problems: String) {
        let output = world.root.appendingPathComponent("terminal-\(UUID().uuidString).txt")
        let typed = answers.map { "type '\($0.prompt)' \($0.count) '\($0.text)'" }.joined(separator: "\n")
        let ends = endings.map { "-e '\($0)'" }.joined(separator: " ")
        let typist = try script(
            "typist-\(UUID().uuidString).sh",
            """
            seen() { [ "$(grep -c "$1" \(output.path) 2>/dev/null)" -ge "$2" ]; }
            wait_for() { n=0; until seen "$1" "$2"; do sleep 0.05; n=$((n+1)); [ $n -gt 600 ] && exit 1; done; }
            type() { wait_for "$1" "$2"; printf '%s\\n' "$3"; }
            \(typed)
            n=0; until grep -q \(ends) \(output.path); do sleep 0.05; n=$((n+1)); [ $n -gt 600 ] && exit 1; done

            """
        )
        let command =
            "\(typist.path) | timeout 120 script -qefc '\(LinkdProcess.executable.path) "
            + arguments.map { "\"\($0)\"" }.joined(separator: " ") + "' /dev/null "
            + "> \(output.path)"
        let errors = world.root.appendingPathComponent("terminal-errors-\(UUID().uuidString).txt")
        let shell = try world.start(["-c", command], executable: "/bin/sh", extra: extra, stderrPath: errors.path)
        shell.waitUntilExit()
        let shown = ((try? String(contentsOf: output, encoding: .utf8)) ?? "").replacingOccurrences(of: "\r", with: "")
        let problems = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return (shown, shell.terminationStatus, problems)
    }

    /// Everything a leak could hide in: the daemon's log, the spool's file names, and the argv and environment of
    /// the world's daemons.
    package func leakSurfaces() -> String {
        var text = (try? String(contentsOfFile: world.logPath, encoding: .utf8)) ?? ""
        text += ((try? FileManager.default.contentsOfDirectory(atPath: world.spoolPath)) ?? []).joined(separator: "\n")
        for pid in world.daemonPIDs() {
            for file in ["cmdline", "environ"] {
                let data = FileManager.default.contents(atPath: "/proc/\(pid)/\(file)") ?? Data()
                text += String(decoding: data, as: UTF8.self)
            }
        }
        return text
    }
}
