import LinkdWire

/// A `linkd` subcommand: parsed from its arguments, then run against a console.
protocol Command: Sendable {
    /// The subcommand's name (`parse`).
    static var name: String { get }
    /// One line for the `SUBCOMMANDS:` list and the `OVERVIEW:` line.
    static var abstract: String { get }
    /// The forms of its command line: the usage line, the man page's SYNOPSIS and the completions are written from it
    /// and ``options``.
    static var synopsis: Synopsis { get }
    /// The full `--help` text.
    static var help: String { get }
    /// The options the subcommand takes; ``ArgumentScanner`` reads its arguments by this table.
    static var options: [CommandOption] { get }

    /// Parses the arguments after the subcommand's name.
    ///
    /// - Throws: ``CLIError`` for an unknown option or a missing argument.
    init(parsing arguments: [[UInt8]]) throws(CLIError)

    /// Runs the command.
    ///
    /// A command that reports on several links one by one prints a line for each refused one itself and goes on.
    ///
    /// - Returns: the exit code of a run that went to its end: ``ExitCode/success``, or the worst code among its links.
    /// - Throws: ``CommandFailure`` for a failure that ends the command; ``LinkdCLI`` prints it.
    func run(_ console: Console) async throws(CommandFailure) -> ExitCode
}

extension Command {
    /// The `USAGE:` line without the `USAGE: ` prefix, written from ``synopsis``.
    static var usage: String { synopsis.usage(of: name, options: options) }

    /// Scans `arguments` by the subcommand's option table.
    ///
    /// - Throws: ``CLIError`` for an unknown option or a value option with no value.
    static func scan(_ arguments: [[UInt8]]) throws(CLIError) -> ArgumentScanner {
        try ArgumentScanner(arguments, options: options, command: name)
    }
}
