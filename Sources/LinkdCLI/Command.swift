/// A `linkd` subcommand: parsed from its arguments, then run against a console.
protocol Command: Sendable {
    /// The subcommand's name (`parse`).
    static var name: String { get }
    /// One line for the `SUBCOMMANDS:` list and the `OVERVIEW:` line.
    static var abstract: String { get }
    /// The `USAGE:` line without the `USAGE: ` prefix.
    static var usage: String { get }
    /// The full `--help` text.
    static var help: String { get }

    /// Parses the arguments after the subcommand's name.
    ///
    /// - Throws: ``CLIError`` for an unknown option or a missing argument.
    init(parsing arguments: [[UInt8]]) throws(CLIError)

    /// Runs the command and returns its exit code.
    func run(_ console: Console) async -> ExitCode
}

/// Splits a subcommand's arguments into flags it knows and positional values.
struct ArgumentScanner {
    var flags: Set<String> = []
    var positionals: [[UInt8]] = []

    /// Reads `arguments`, accepting the flags in `known`; `--` ends the options.
    ///
    /// - Throws: ``CLIError/unknownOption(_:command:)`` for any other argument that starts with `-` (but `-` itself).
    init(_ arguments: [[UInt8]], known: Set<String>, command: String) throws(CLIError) {
        var optionsEnded = false
        for argument in arguments {
            let text = String(decoding: argument, as: UTF8.self)
            if optionsEnded || text == "-" || !text.hasPrefix("-") {
                positionals.append(argument)
            } else if text == "--" {
                optionsEnded = true
            } else if known.contains(text) {
                flags.insert(text)
            } else {
                throw .unknownOption(text, command: command)
            }
        }
    }
}
