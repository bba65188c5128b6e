import LinkdWire

/// Why a command ended before its work was done: a mistake in the command line, or a failure while it ran.
///
/// ``LinkdCLI`` renders it, in one place: `Error: <description>` on standard error, and for a usage error the usage
/// line after it.
enum CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command line is wrong; exits 64 (`EX_USAGE`) after the usage line.
    case usage(CLIError)
    /// The command could not go on: what went wrong, and the code to exit with.
    case failed(String, exitCode: ExitCode)

    /// The code `linkd` exits with.
    var exitCode: ExitCode {
        switch self {
        case .usage: .usage
        case .failed(_, let exitCode): exitCode
        }
    }

    /// The message after `Error: `.
    var description: String {
        switch self {
        case .usage(let error): error.description
        case .failed(let message, _): message
        }
    }
}
