import Foundation
import LinkdTestSupport
import Testing

/// The examples of the guides that need a desktop (blocks marked ` ```console desktop `): each block's commands run
/// in order, in a world of their own (temporary XDG folders, the example app of `share/examples/apps.d`, a running
/// daemon), `linkd` and the desktop's own tools (`xdg-mime`) alike, and each `linkd` command prints what the guide
/// shows after it, the world's folders read as the guide's reader's (`/home/ada`, `/run/user/1000`).
@Suite(.ownThread) struct DocumentationDesktopExampleTests {
    /// One `$ ` line of a marked block, its words, and the lines shown after it.
    struct Step {
        let words: [String]
        let output: String
    }

    /// The blocks of `document` marked ` ```console KIND `, each as the words after the kind and its steps.
    static func blocks(in document: String, marked kind: String) throws -> [(words: [String], steps: [Step])] {
        let text = try String(
            contentsOf: DocumentationTests.repository.appendingPathComponent(document),
            encoding: .utf8
        )
        var blocks: [(words: [String], steps: [Step])] = []
        var words: [String] = []
        var block: [(words: [String], lines: [String])]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let done = block {
                    let steps = done.map { Step(words: $0.words, output: $0.lines.map { $0 + "\n" }.joined()) }
                    blocks.append((words, steps))
                    block = nil
                } else if line == "```console \(kind)" || line.hasPrefix("```console \(kind) ") {
                    words = line.split(separator: " ").dropFirst(2).map(String.init)
                    block = []
                }
                continue
            }
            guard block != nil else { continue }
            if line.hasPrefix("$ ") {
                block?.append((DocumentationExampleTests.words(of: String(line.dropFirst(2))), []))
            } else if var last = block?.popLast() {
                last.lines.append(line)
                block?.append(last)
            }
        }
        return blocks
    }

    /// The world's paths as the guide writes them, longest first.
    static func asTheGuideWritesIt(_ text: String, _ world: DaemonHarness) -> String {
        let home = world.root.path
        return text.replacingOccurrences(of: world.runtime.path, with: "/run/user/1000")
            .replacingOccurrences(of: home + "/data", with: "/home/ada/.local/share")
            .replacingOccurrences(of: world.config.path, with: "/home/ada/.config")
            .replacingOccurrences(of: world.state.path, with: "/home/ada/.local/state")
            .replacingOccurrences(of: home, with: "/home/ada")
    }

    /// The files of the `linkd check` example: the guide's `notes.json`, and two more with the problems it names.
    static func checkExampleFiles() throws -> [String: String] {
        let guide = try String(
            contentsOf: DocumentationTests.repository.appendingPathComponent("share/doc/linkd/app-developers.md"),
            encoding: .utf8
        )
        let notes = try #require(
            guide.matches(of: /```json\n([\s\S]*?)```/).map { String($0.output.1) }.first {
                $0.contains(#""exec": ["notes", "%u"]"#)
            }
        )
        return [
            "notes.json": notes,
            "tasks.json": """
            {"app": "com.example.Tasks",
             "links": [{"match": "com.example.tasks://reset", "format": "supabase", "action": "reset"}],
             "backend": {"kind": "supabase", "url": "https://efgh.supabase.co", "apiKey": "anon", "colour": "blue"}}

            """,
            "todo.json": """
            {"app": "com.example.Todo",
             "links": [{"match": "com.example.todo://item/{id}", "action": "forward"},]}

            """,
        ]
    }

    /// A daemon world whose apps.d holds `files` (by name) and nothing else.
    static func world(apps files: [String: String]) throws -> DaemonHarness {
        let world = try DaemonHarness()
        let apps = world.config.appendingPathComponent("linkd/apps.d")
        try FileManager.default.removeItem(at: apps)
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: apps.appendingPathComponent(name)) }
        return world
    }

    @Test func theCheckExamplePrintsWhatTheGuideShows() throws {
        var ran = 0
        for document in DocumentationTests.documents {
            for (_, block) in try Self.blocks(in: document, marked: "check") {
                let world = try Self.world(apps: Self.checkExampleFiles())
                defer { try? FileManager.default.removeItem(at: world.root) }
                for step in block {
                    let result = try LinkdProcess.run(
                        Array(step.words.dropFirst()),
                        environment: world.desktopEnvironment
                    )
                    #expect(step.words.first == "linkd")
                    #expect(result.status == 65)
                    #expect(Self.asTheGuideWritesIt(result.stdout, world) == step.output, "\(document)")
                    ran += 1
                }
            }
        }
        #expect(ran == 1)
    }

    @Test func everyDesktopExampleRunsAndPrintsWhatTheGuideShows() throws {
        var ran = 0
        for document in DocumentationTests.documents {
            for (_, block) in try Self.blocks(in: document, marked: "desktop") {
                let world = try Self.world(apps: ["com.example.Notes.json": DocumentationTests.exampleApp()])
                defer { try? FileManager.default.removeItem(at: world.root) }
                // The reader's desktop: the example app's program installed, and a browser.
                let bin = world.root.appendingPathComponent(".local/bin")
                try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
                try ProgramFile.write("#!/bin/sh\ncat > /dev/null\n", to: bin.appendingPathComponent("notes"))
                let applications = world.root.appendingPathComponent("data/applications")
                try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
                try Data(
                    """
                    [Desktop Entry]
                    Type=Application
                    Name=Firefox ESR
                    Exec=/bin/true %u
                    MimeType=x-scheme-handler/http;x-scheme-handler/https;

                    """.utf8
                ).write(to: applications.appendingPathComponent("firefox-esr.desktop"))
                let daemon = try world.startDaemon()
                defer { daemon.terminate() }
                for step in block {
                    let shown = "\(document): $ \(step.words.joined(separator: " "))"
                    switch step.words.first {
                    case "linkd":
                        let result = try LinkdProcess.run(
                            Array(step.words.dropFirst()),
                            environment: world.desktopEnvironment
                        )
                        #expect(Self.asTheGuideWritesIt(result.stdout, world) == step.output, "\(shown)")
                        ran += 1
                    case "xdg-mime":
                        let result = try world.runProgram(
                            "xdg-mime",
                            Array(step.words.dropFirst()),
                            world.desktopEnvironment
                        )
                        #expect(result.status == 0 && step.output.isEmpty, "\(shown)")
                    default:
                        Issue.record("\(shown): only linkd and xdg-mime run in a desktop example")
                    }
                }
            }
        }
        #expect(ran >= 4, "the guides show at least four desktop examples")
    }
}
