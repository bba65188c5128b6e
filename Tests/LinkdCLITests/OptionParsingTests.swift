import Foundation
import LinkdTestSupport
import Testing

/// One option table for every command: `--opt VALUE` and `--opt=VALUE` alike, and the same usage errors everywhere.
@Suite(.ownThread) struct OptionParsingTests {
    static let usages = [
        "parse": "linkd parse [--json] [--reveal] <url> ...",
        "route": "linkd route [--json] [--reveal] [--web] [--config <dir>] <url> ...",
        "daemon": "linkd daemon [--socket <path>] [--idle-exit <seconds>]",
        "reset": "linkd reset (request | --code [--code-stdin]) --app <name> --email <address> [--password-stdin]",
        "status": "linkd status [--json]",
    ]

    /// `option VALUE` as two arguments, or as one with `=`.
    static func given(_ option: String, _ value: String, joined: Bool) -> [String] {
        joined ? ["\(option)=\(value)"] : [option, value]
    }

    /// What a usage error of `command` prints, and its exit code.
    static func usageError(_ message: String, _ command: String) -> LinkdProcess.Output {
        let usage = usages[command] ?? "?"
        return .init(
            stdout: "",
            stderr: "Error: \(message)\nUsage: \(usage)\n  See 'linkd \(command) --help' for more information.\n",
            status: 64
        )
    }

    @Test(arguments: [false, true])
    func routeReadsTheConfigFolderEitherWay(joined: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-options-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"app": "org.example.Mail", "links": [{"match": "mailapp://open/{id}", "action": "forward"}]}"#.utf8)
            .write(to: folder.appendingPathComponent("mail.json"))
        let output = try LinkdProcess.run(
            ["route", "--json"] + Self.given("--config", folder.path, joined: joined) + ["mailapp://open/42"]
        )
        #expect(
            output
                == .init(
                    stdout:
                        #"{"input": "mailapp://open/42", "route": "mailapp://open/{id}", "app": "org.example.Mail", "#
                        + #""action": "forward", "fields": {"id": "42"}}"# + "\n",
                    stderr: "",
                    status: 0
                )
        )
    }

    @Test(arguments: [false, true])
    func daemonReadsTheSocketAndIdleExitEitherWay(joined: Bool) throws {
        let world = try DaemonHarness()
        let socket = world.root.path + "/other.socket"
        let log = world.root.path + "/daemon.log"
        let daemon = try world.startDaemon(
            Self.given("--socket", socket, joined: joined) + Self.given("--idle-exit", "1", joined: joined),
            stderrPath: log,
            timeout: .seconds(3)
        )
        let start = Date()
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        #expect(Date().timeIntervalSince(start) < 3)  // not the default 30 s
        #expect(!FileManager.default.fileExists(atPath: socket))
        // It listened there (read from its log: a loaded machine may let its one idle second pass before this test
        // could look at the socket).
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("listening on \(socket) "))
        #expect(!FileManager.default.fileExists(atPath: world.socketPath))
    }

    @Test(arguments: [false, true])
    func resetRequestReadsTheAppAndEmailEitherWay(joined: Bool) throws {
        let arguments =
            ["reset", "request"] + Self.given("--app", "org.example.Nope", joined: joined)
            + Self.given("--email", "ada@example.com", joined: joined)
        #expect(
            try LinkdProcess.run(arguments)
                == .init(stdout: "", stderr: "Error: no app 'org.example.Nope' in apps.d (apps: none)\n", status: 64)
        )
        let badEmail = ["reset", "request", "--app=x"] + Self.given("--email", "not-one", joined: joined)
        #expect(
            try LinkdProcess.run(badEmail) == Self.usageError("'not-one' is not a valid value for '--email'", "reset")
        )
    }

    @Test(arguments: [
        (["route", "--json=yes", "myapp://x"], "unknown option '--json=yes'", "route"),
        (["parse", "--xml=1", "myapp://x"], "unknown option '--xml=1'", "parse"),
        (["daemon", "--bogus"], "unknown option '--bogus'", "daemon"),
        (["daemon", "-"], "unknown option '-'", "daemon"),
        (["status", "--json=no"], "unknown option '--json=no'", "status"),
        (["route", "myapp://x", "--config"], "missing value for '--config'", "route"),
        (["daemon", "--socket"], "missing value for '--socket'", "daemon"),
        (["daemon", "--idle-exit"], "missing value for '--idle-exit'", "daemon"),
        (["reset", "request", "--app", "x", "--email"], "missing value for '--email'", "reset"),
        (["reset", "request", "--app"], "missing value for '--app'", "reset"),
        (["daemon", "--idle-exit=0"], "'0' is not a valid value for '--idle-exit'", "daemon"),
        (["daemon", "--idle-exit="], "'' is not a valid value for '--idle-exit'", "daemon"),
        (["reset", "request", "--app=x", "--email=a@b", "extra"], "unknown option 'extra'", "reset"),
    ])
    func refusesWithTheUsageLine(_ arguments: [String], _ message: String, _ command: String) throws {
        #expect(try LinkdProcess.run(arguments) == Self.usageError(message, command))
    }

    @Test func doubleDashEndsTheOptionsAndADashIsStandardInput() throws {
        #expect(
            try LinkdProcess.run(["parse", "--", "--json"])
                == .init(
                    stdout: "",
                    stderr: "Error: link 1: the link does not start with a scheme such as 'myapp:' or 'https:' "
                        + "[no_scheme in scheme]\n",
                    status: 65
                )
        )
        #expect(
            try LinkdProcess.run(["parse", "-"], stdin: Data("myapp://x\n".utf8))
                == .init(stdout: "myapp://x\n  protocol:  myapp:\n  hostname:  x\n", stderr: "", status: 0)
        )
    }
}
