import Foundation
import LinkdTestSupport
import Testing

/// `linkd completions`: the scripts the package installs, and the words they complete from the apps.d folders.
/// (`packaging/test-completions` runs the scripts in bash, zsh and fish.)
@Suite(.ownThread) struct CompletionsCommandTests {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/LinkdCLI/Completions")

    @Test(arguments: [("bash", "linkd.bash"), ("zsh", "_linkd"), ("fish", "linkd.fish")])
    func printsTheScriptOfEachShell(_ shell: String, _ file: String) throws {
        let script = try String(contentsOf: Self.scripts.appendingPathComponent(file), encoding: .utf8)
        #expect(script.utf8.count > 1_000)
        #expect(try LinkdProcess.run(["completions", shell]) == .init(stdout: script, stderr: "", status: 0))
    }

    @Test func listsTheInstalledAppsAndTheSchemesTheyClaim() throws {
        let world = try DaemonHarness()
        let more = #"{"app": "org.example.Mail", "links": [{"match": "mailapp://open/{id}", "action": "forward"}]}"#
        try Data(more.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/mail.json"))
        let apps = try world.run(["completions", "--list", "apps"])
        #expect(apps.status == 0 && apps.stderr.isEmpty)
        #expect(apps.stdout.split(separator: "\n").contains("com.example.Notes"))
        #expect(apps.stdout.split(separator: "\n").contains("org.example.Mail"))
        let schemes = try world.run(["completions", "--list=schemes"])
        #expect(schemes.status == 0 && schemes.stderr.isEmpty)
        let lines = schemes.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("myapp") && lines.contains("mailapp"))
        #expect(lines == lines.sorted() && Set(lines).count == lines.count)
    }

    @Test(arguments: [
        (["completions"], "Error: missing expected argument 'bash|zsh|fish'"),
        (["completions", "tcsh"], "Error: 'tcsh' is not a valid value for '<shell>'"),
        (["completions", "bash", "zsh"], "Error: 'zsh' is not a valid value for '<shell>'"),
        (["completions", "--list", "users"], "Error: 'users' is not a valid value for '--list'"),
        (["completions", "--list", "apps", "bash"], "Error: '--list' cannot be used with 'bash'"),
    ])
    func refusesWhatIsNotAShellOrAList(_ arguments: [String], _ error: String) throws {
        let output = try LinkdProcess.run(arguments)
        #expect(output.status == 64)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.hasPrefix(error + "\n"), "\(output)")
    }
}
