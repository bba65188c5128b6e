import Dispatch
import FoundationEssentials
import LinkdSystem
package import LinkdWire

/// The `linkd` command line: dispatch to subcommands, help and version, and the one place errors are rendered.
package enum LinkdCLI {
    /// The version `linkd --version` prints: the repository's VERSION file, embedded by the build.
    package static let version = String(decoding: PackageResources.VERSION.prefix { $0 > 0x20 }, as: UTF8.self)

    static let commands: [any Command.Type] = [
        OpenCommand.self, ParseCommand.self, RouteCommand.self, CheckCommand.self, RegisterCommand.self,
        UnregisterCommand.self, StatusCommand.self, DaemonCommand.self, ResetCommand.self, ConfirmCommand.self,
        LoginCommand.self,
        CompletionsCommand.self,
    ]

    static var help: String {
        var text = """
            OVERVIEW: Open password-reset and sign-in links in desktop apps, the way Universal Links work on iOS.

            USAGE: linkd <subcommand>

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:

            """
        for command in commands {
            text += "  " + command.name.padding(to: 24) + command.abstract + "\n"
        }
        text += "\n  See 'linkd <subcommand> --help' for detailed help.\n"
        return text
    }

    /// Runs `linkd` with the process's arguments and exits with the command's code.
    ///
    /// A clicked web link for the browser (`linkd open --web URL`) is passed on before the concurrency runtime starts:
    /// the browser takes this process's place with no thread to stop, as fast as a launcher would have started it.
    /// Everything else runs in a task, the main thread serving the main queue.
    package static func main() -> Never {
        // Links, tokens and passwords pass through this process: no core file, and no other process of the user
        // reading its memory. A kernel that refuses leaves the process as it was, which is no reason not to run.
        try? ProcessHardening.forbidCoreDumps()
        ProcessHardening.forgetKeyLogs()  // before libcurl loads: its TLS keys go to no file
        let arguments = CurrentProcess.arguments
        if arguments.first == Array("open".utf8) {
            // The links are read: overwrite them, so /proc/<pid>/cmdline never shows a token for long.
            CurrentProcess.scrubArguments(keeping: 2)
        }
        let click = OpenCommand.passWebLinkAtOnce(arguments)
        Task {
            let code: ExitCode
            if let (command, step) = click {
                do throws(CommandFailure) {
                    code = try await command.openWeb(.standard, decided: step)
                } catch {
                    render(error, console: .standard)
                    code = error.exitCode
                }
            } else {
                code = await run(arguments, console: .standard)
            }
            CurrentProcess.exit(code.rawValue)
        }
        dispatchMain()
    }

    /// Runs `linkd` with `arguments` (the words after the program name, as raw bytes).
    ///
    /// - Returns: the exit code; a usage error prints the usage line and returns 64.
    package static func run(_ arguments: [[UInt8]], console: Console) async -> ExitCode {
        do throws(CommandFailure) {
            return try await dispatch(arguments, console: console)
        } catch {
            render(error, console: console)
            return error.exitCode
        }
    }

    /// Answers help and version, or parses and runs the subcommand.
    private static func dispatch(_ arguments: [[UInt8]], console: Console) async throws(CommandFailure) -> ExitCode {
        let words = arguments.map { String(decoding: $0, as: UTF8.self) }
        guard let first = words.first else {
            console.writeError(help)
            return .usage
        }
        switch first {
        case "-h", "--help", "help":
            if words.count > 1, let command = commands.first(where: { $0.name == words[1] }) {
                console.write(command.help)
            } else {
                console.write(help)
            }
            return .success
        case "--version":
            console.write("linkd \(version)\n")
            return .success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            throw .usage(.unknownCommand(first))
        }
        if words.dropFirst().contains(where: { $0 == "-h" || $0 == "--help" }) {
            console.write(command.help)
            return .success
        }
        let parsed: any Command
        do throws(CLIError) {
            parsed = try command.init(parsing: Array(arguments.dropFirst()))
        } catch {
            throw .usage(error)
        }
        return try await parsed.run(console)
    }

    /// Prints `failure` on standard error: the one place errors are rendered.
    ///
    /// A usage error is followed by the usage line of its command (of `linkd` itself when it names none).
    private static func render(_ failure: CommandFailure, console: Console) {
        var text = "Error: \(failure)\n"
        if case .usage(let error) = failure {
            if let command = error.command.flatMap({ name in commands.first { $0.name == name } }) {
                text += "Usage: \(command.usage)\n  See 'linkd \(command.name) --help' for more information.\n"
            } else {
                text += "Usage: linkd <subcommand>\n  See 'linkd --help' for more information.\n"
            }
        }
        console.writeError(text)
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
