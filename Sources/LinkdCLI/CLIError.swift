package import LinkdDesktop
import LinkdFormats

/// The error type of the command line: what went wrong with the invocation itself.
package enum CLIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An option the command does not know.
    case unknownOption(String, command: String)
    /// A required argument is missing.
    case missingArgument(String, command: String)
    /// A subcommand that does not exist.
    case unknownCommand(String)
    /// `-` was given more than once; standard input can be read only once.
    case stdinTwice(command: String)
    /// An option that takes a value was given none.
    case missingValue(String, command: String)
    /// An option's value is not one it accepts.
    case badValue(String, option: String, command: String)
    /// Two arguments that cannot be given together.
    case conflict(String, String, command: String)
    /// A URL scheme linkd never registers: not a scheme, or one that belongs to browsers and mail clients.
    case refusedScheme(Registrar.Problem, command: String)

    /// The command whose usage line goes with the error (`nil` for the top level).
    package var command: String? {
        switch self {
        case .unknownOption(_, let command), .missingArgument(_, let command), .stdinTwice(let command),
            .missingValue(_, let command), .badValue(_, _, let command), .conflict(_, _, let command),
            .refusedScheme(_, let command):
            command
        case .unknownCommand: nil
        }
    }

    /// The message; what the person typed is quoted with its secrets redacted (a link given where an option was
    /// expected may carry a token or a password).
    package var description: String {
        switch self {
        case .unknownOption(let option, _): "unknown option \(quoted(option))"
        case .missingArgument(let argument, _): "missing expected argument '\(argument)'"
        case .unknownCommand(let name): "unknown subcommand \(quoted(name))"
        case .stdinTwice: "'-' (standard input) may be given only once"
        case .missingValue(let option, _): "missing value for '\(option)'"
        case .badValue(let value, let option, _): "\(quoted(value)) is not a valid value for '\(option)'"
        case .conflict(let first, let second, _): "\(quoted(first)) cannot be used with \(quoted(second))"
        case .refusedScheme(let problem, _): problem.description
        }
    }

    private func quoted(_ typed: String) -> String { "'" + LinkRedactor.redact(typed) + "'" }
}
