import LinkdTestSupport
import LinkdWire
import Testing

@testable import LinkdCLI

/// A failure that ends a command is printed in one place: one `Error:` line, and the usage line for usage errors only.
@Suite(.ownThread) struct CommandFailureTests {
    @Test func aFailureWhileRunningPrintsOneErrorLineAndItsExitCode() throws {
        #expect(
            try LinkdProcess.run(["open", "myapp://note/1"], environment: ["XDG_RUNTIME_DIR": ""])
                == .init(
                    stdout: "",
                    stderr: "Error: XDG_RUNTIME_DIR is not set, so there is no place for the linkd socket\n",
                    status: 69
                )
        )
        #expect(
            try LinkdProcess.run(["register"])
                == .init(
                    stdout: "",
                    stderr: RegisterCommand.testBuildWarning
                        + "Error: no app in apps.d claims a custom scheme; name the schemes to register\n",
                    status: 64
                )
        )
    }

    @Test func aUsageErrorAddsTheUsageLineOfItsCommand() throws {
        #expect(
            try LinkdProcess.run(["open", "--xml", "myapp://note/1"])
                == .init(
                    stdout: "",
                    stderr: """
                        Error: unknown option '--xml'
                        Usage: linkd open [--json] [--password-stdin] [--code-stdin] [--web] <url> ...
                          See 'linkd open --help' for more information.

                        """,
                    status: 64
                )
        )
    }
}
