import Foundation
import LinkdTestSupport
import Testing

@testable import LinkdCLI

/// `linkd completions`: the scripts the package installs, and the words they complete from the apps.d folders.
/// (`CompletionScriptTests` checks what the scripts hold; `packaging/test-completions` runs them in bash, zsh and
/// fish; `packaging/test-deb` checks that the package installs what `linkd completions` prints.)
@Suite(.ownThread) struct CompletionsCommandTests {
    @Test(arguments: CompletionsCommand.Shell.allCases)
    func printsTheScriptOfEachShellAsTheCommandTableWritesIt(_ shell: CompletionsCommand.Shell) throws {
        #expect(shell.script.utf8.count > 1_000)
        #expect(
            try LinkdProcess.run(["completions", shell.rawValue]) == .init(stdout: shell.script, stderr: "", status: 0)
        )
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
