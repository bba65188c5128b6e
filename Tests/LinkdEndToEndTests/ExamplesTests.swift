import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// The examples in `share/examples/`, which the app developers' guide quotes, run for real through linkd: each in a
/// private world whose apps.d names it, reached by `linkd open`, and judged by what it wrote. An example that breaks fails
/// here.
@Suite(.ownThread, .serialized) struct ExamplesTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("share/examples")
    static let canary = "c4nary3x4m9l"
    static let app = "org.example.Receiver"

    /// Adds the app `org.example.Receiver` to `world`: `example://note/{id}` runs `exec`, `example://inbox/{id}` is
    /// forwarded to its subscriber.
    private func writeReceiver(_ world: DaemonHarness, exec: [String]) throws {
        let argv = exec.map { "\"\($0)\"" }.joined(separator: ", ")
        let app = """
            {"app": "\(Self.app)", "links": [
              {"match": "example://note/{id}", "action": {"exec": [\(argv)]}},
              {"match": "example://inbox/{id}", "action": "forward"}]}
            """
        try Data(app.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/receiver.json"))
    }

    /// The lines of the file at `url`; none when it does not exist.
    private func lines(_ url: URL) -> [String] {
        ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The `id` of a line an example wrote.
    private func linkID(_ line: String) -> String? {
        ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["id"] as? String
    }

    /// The line the examples write for a link: its id, app, route and fields with the secrets redacted.
    private func note(id: String, route: String, fields: String) -> String {
        #"{"id": "\#(id)", "app": "\#(Self.app)", "route": "\#(route)", "fields": {\#(fields)}}"#
    }

    @Test func everyLineTheGuideQuotesIsInAnExample() throws {
        let readme = try String(
            contentsOf: Self.examples.deletingLastPathComponent().appendingPathComponent("doc/linkd/app-developers.md"),
            encoding: .utf8
        )
        let section = try #require(readme.firstRange(of: "\n## Receiving links in your app\n"))
        let text = readme[section.upperBound...]
        let end = text.firstRange(of: "\n## ")?.lowerBound ?? text.endIndex
        let examples = try ["receive-link.py", "receive-link.sh", "subscribe.py", "linkd-app.py"].map {
            try String(contentsOf: Self.examples.appendingPathComponent($0), encoding: .utf8)
        }
        let exampleLines = Set(
            examples.flatMap { $0.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } }
        )
        var quoted: [String] = []
        var language: Substring?
        for line in text[..<end].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                language = language == nil ? line.dropFirst(3) : nil
            } else if language == "python" || language == "sh", !line.isEmpty {
                quoted.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        #expect(quoted.count >= 8)
        #expect(quoted.filter { !exampleLines.contains($0) } == [])
        for name in ["receive-link.py", "receive-link.sh", "subscribe.py", "linkd-app.py"] {
            #expect(readme.contains("(../../examples/\(name))"), "the guide links \(name)")
        }
    }

    @Test(arguments: ["receive-link.py", "receive-link.sh"])
    func theExecExampleNotesTheRouteAndFieldsButNoSecret(_ example: String) throws {
        let world = try DaemonHarness()
        let output = world.root.appendingPathComponent("notes.jsonl")
        try writeReceiver(world, exec: [Self.examples.appendingPathComponent(example).path, output.path])
        let link = "example://note/7?x=a%20b#access_token=\(Self.canary).b.c&code=\(Self.canary)c"
        let opened = try world.run(["open", link])
        #expect(
            opened == .init(stdout: "delivered: example://note/{id} → \(Self.app)\n", stderr: "", status: 0),
            "\(world.daemonLog())"
        )
        #expect(world.waitUntil(.seconds(15)) { !lines(output).isEmpty }, "\(world.daemonLog())")
        let written = lines(output)
        let id = try #require(written.first.flatMap(linkID))
        #expect(id.count == 32)
        #expect(
            written == [
                note(
                    id: id,
                    route: "example://note/{id}",
                    fields: #""id": "7", "x": "a b", "access_token": "<redacted>", "code": "<redacted>""#
                )
            ]
        )
        // The program exits after writing; its exit is logged, and no secret is in the log either.
        #expect(world.waitUntil(.seconds(10)) { world.daemonLog().contains("exited with status 0") })
        #expect(!world.daemonLog().contains(Self.canary))
    }

    @Test(arguments: ["receive-link.py", "receive-link.sh"])
    func withoutAnOutputFileTheExecExampleWritesToTheDaemonsLog(_ example: String) throws {
        let world = try DaemonHarness()
        try writeReceiver(world, exec: [Self.examples.appendingPathComponent(example).path])
        let opened = try world.run(["open", "example://note/9?q=%22hi%22#refresh_token=\(Self.canary)"])
        #expect(opened.status == 0, "\(opened)")
        let expected =
            #""route": "example://note/{id}", "fields": {"id": "9", "q": "\"hi\"", "refresh_token": "<redacted>"}}"#
        #expect(world.waitUntil(.seconds(15)) { world.daemonLog().contains(expected) }, "\(world.daemonLog())")
        #expect(!world.daemonLog().contains(Self.canary))
    }

    @Test(arguments: ["receive-link.py", "receive-link.sh"])
    func theExecExampleSkipsALinkItWasGivenBefore(_ example: String) throws {
        // What linkd does after a crash before it saw the program read the link: the same payload, the same id.
        let world = try DaemonHarness()
        let output = world.root.appendingPathComponent("notes.jsonl")
        let id = "5e1f0c2a9b3d4e6f8a7b6c5d4e3f2a1b"
        let payload = world.root.appendingPathComponent("payload.json")
        try Data(
            #"{"id": "\#(id)", "app": "\#(Self.app)", "route": "example://note/{id}", "fields": {"id": "3", "token": "\#(Self.canary)"}, "url": "example://note/3?token=\#(Self.canary)"}"#
                .appending("\n").utf8
        ).write(to: payload)
        var said: [String] = []
        for run in 1...2 {
            let stdout = world.root.appendingPathComponent("stdout-\(run)")
            let program = try SpawnedProcess(
                Self.examples.appendingPathComponent(example).path,
                [output.path],
                environment: world.environment.merging(["LINKD_LINK_ID": id]) { $1 },
                stdinPath: payload.path,
                stdoutPath: stdout.path
            )
            program.waitUntilExit()
            #expect(program.terminationStatus == 0)
            said.append((try? String(contentsOf: stdout, encoding: .utf8)) ?? "")
        }
        #expect(
            lines(output) == [note(id: id, route: "example://note/{id}", fields: #""id": "3", "token": "<redacted>""#)]
        )
        #expect(said == ["", "link \(id) was noted before; skipped\n"])
    }

    @Test func theSubscriberWaitsForTheDaemonAndGetsEachForwardedLink() throws {
        let world = try DaemonHarness()
        try writeReceiver(world, exec: [Self.examples.appendingPathComponent("receive-link.py").path])
        let output = world.root.appendingPathComponent("forwarded.jsonl")
        let said = world.root.appendingPathComponent("subscriber.err")
        // Started before any daemon listens: it tries again every second.
        let subscriber = try world.start(
            [Self.app, output.path],
            executable: Self.examples.appendingPathComponent("subscribe.py").path,
            stderrPath: said.path
        )
        defer {
            subscriber.terminate()
            subscriber.waitUntilExit()
        }
        let waiting = "waiting for linkd at \(world.socketPath)"
        #expect(world.waitUntil(.seconds(15)) { lines(said) == [waiting] })
        // This starts the daemon; the link waits in its queue until the subscriber tries again (on a loaded machine
        // the subscriber's next try may come first, and the link goes to it at once).
        let first = try world.run(["open", "example://inbox/1?code=\(Self.canary)"])
        #expect(
            ["queued", "delivered"].map {
                LinkdProcess.Output(stdout: "\($0): example://inbox/{id} → \(Self.app)\n", stderr: "", status: 0)
            }
            .contains(first),
            "\(first)"
        )
        #expect(world.waitUntil(.seconds(15)) { lines(output).count == 1 }, "\(world.daemonLog())")
        #expect(lines(said) == [waiting, "subscribed: \(Self.app)"])
        let second = try world.run(["open", "example://inbox/2?x=y"])
        #expect(second == .init(stdout: "delivered: example://inbox/{id} → \(Self.app)\n", stderr: "", status: 0))
        #expect(world.waitUntil(.seconds(15)) { lines(output).count == 2 }, "\(world.daemonLog())")
        let written = lines(output)
        let ids = written.compactMap(linkID)
        #expect(ids.count == 2 && ids[0] != ids[1])
        #expect(
            written == [
                note(id: ids.first ?? "", route: "example://inbox/{id}", fields: #""id": "1", "code": "<redacted>""#),
                note(id: ids.last ?? "", route: "example://inbox/{id}", fields: #""id": "2", "x": "y""#),
            ]
        )
    }

    @Test func theSubscriberGetsTheLinksThatWaitedForIt() throws {
        let world = try DaemonHarness()
        try writeReceiver(world, exec: [Self.examples.appendingPathComponent("receive-link.py").path])
        let queued = try world.run(["open", "example://inbox/5", "example://inbox/6"])
        #expect(queued.stdout == String(repeating: "queued: example://inbox/{id} → \(Self.app)\n", count: 2))
        let output = world.root.appendingPathComponent("forwarded.jsonl")
        let subscriber = try world.start(
            [Self.app, output.path],
            executable: Self.examples.appendingPathComponent("subscribe.py").path
        )
        defer {
            subscriber.terminate()
            subscriber.waitUntilExit()
        }
        #expect(world.waitUntil(.seconds(15)) { lines(output).count == 2 }, "\(world.daemonLog())")
        let ids = lines(output).compactMap(linkID)
        #expect(
            lines(output) == [
                note(id: ids.first ?? "", route: "example://inbox/{id}", fields: #""id": "5""#),
                note(id: ids.last ?? "", route: "example://inbox/{id}", fields: #""id": "6""#),
            ]
        )
    }
}
