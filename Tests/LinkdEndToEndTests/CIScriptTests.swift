import Foundation
import LinkdTestSupport
import Testing

/// `.ci/run` runs what a newcomer runs, in the README's order: the README's install step, then the README's test
/// command, in place and in a fresh clone; nothing runs before them that the README does not tell a person to do
/// (a CI that prepares test data first is green where the README's command fails).
@Suite struct CIScriptTests {
    /// A line of `.ci/run`'s own set-up, before its steps: shell options, the toolchain on PATH, the step function.
    static let setUpLines: Set<String> = [
        "set -euo pipefail", #"cd "$(dirname "$0")/..""#,
        #"if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi"#, "started=$SECONDS",
    ]

    /// The lines of `.ci/run` outside its `step()` function, comments and blank lines left out, continued lines
    /// joined.
    static func scriptLines() throws -> [String] {
        let text = try String(
            contentsOf: DocumentationTests.repository.appendingPathComponent(".ci/run"),
            encoding: .utf8
        )
        var lines: [String] = []
        var insideFunction = false
        var continued = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("step() {") { insideFunction = true }
            if insideFunction {
                if raw == "}" { insideFunction = false }
                continue
            }
            guard !line.hasPrefix("#"), !line.isEmpty || !continued.isEmpty else { continue }
            if line.hasSuffix("\\") {
                continued += line.dropLast() + " "
                continue
            }
            lines.append(continued + line)
            continued = ""
        }
        return lines
    }

    /// The command of a `step MINUTES "TITLE" COMMAND...` line, or nil for another line.
    static func stepCommand(_ line: String) -> String? {
        guard let match = line.wholeMatch(of: /step [0-9]+ "[^"]*" +(.+)/) else { return nil }
        return String(match.output.1)
    }

    /// The README's two commands (under "## Two commands"): the set-up line and the test line.
    static func readmeCommands() throws -> [String] {
        let readme = try String(
            contentsOf: DocumentationTests.repository.appendingPathComponent("README.md"),
            encoding: .utf8
        )
        let section = try #require(readme.split(separator: "\n## ").first { $0.hasPrefix("Two commands") })
        return section.split(separator: "```sh\n").dropFirst().compactMap { block in
            block.prefix { $0 != "`" }.split(separator: "\n").first { !$0.hasPrefix("#") }.map(String.init)
        }
    }

    @Test func theTestsComeRightAfterTheReadmesInstallStep() throws {
        let readme = try Self.readmeCommands()
        try #require(readme.count == 2)
        let steps = try Self.scriptLines().compactMap(Self.stepCommand)
        try #require(steps.count >= 3)
        #expect(readme[0].hasPrefix(steps[0] + " && "), "the first step is the README's first: \(steps[0])")
        #expect(steps[0] == "scripts/install-deps")
        #expect(steps[1] == readme[1], "the second step is the README's test command")
        #expect(steps[2] == "scripts/test-fresh-clone")
    }

    @Test func nothingBeforeTheTestsButTheReadmesInstallStep() throws {
        let readme = try Self.readmeCommands()
        let lines = try Self.scriptLines()
        let tests = try #require(lines.firstIndex { Self.stepCommand($0) == readme.last })
        for line in lines[..<tests] {
            let isSetUp = Self.setUpLines.contains(line)
            let isInstall = Self.stepCommand(line).map { readme[0].hasPrefix($0 + " && ") } ?? false
            #expect(isSetUp || isInstall, "'.ci/run' does this before the README's test command: \(line)")
        }
    }

    @Test func theFreshCloneRunsTheReadmesTestCommand() throws {
        let files = SpawnFiles.make()
        defer { try? FileManager.default.removeItem(at: files) }
        let output = files.appendingPathComponent("stdout")
        let script = try SpawnedProcess(
            DocumentationTests.repository.appendingPathComponent("scripts/test-fresh-clone").path,
            ["--print-command"],
            environment: ProcessInfo.processInfo.environment,
            stdoutPath: output.path
        )
        script.waitUntilExit()
        #expect(script.terminationStatus == 0)
        let printed = try String(contentsOf: output, encoding: .utf8)
        #expect(printed == (try Self.readmeCommands().last ?? "") + "\n")
    }
}
