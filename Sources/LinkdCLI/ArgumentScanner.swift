import LinkdDesktop

/// Splits a command's arguments, by its option table, into flags, option values and positional arguments.
struct ArgumentScanner {
    /// The flags given, such as `--json`.
    private(set) var flags: Set<String> = []
    /// The value of each value option given, by its name (`--config`); the last wins when one is given twice.
    private(set) var values: [String: String] = [:]
    /// Every other argument, in order, as raw bytes.
    private(set) var positionals: [[UInt8]] = []

    /// Reads `arguments` by the table `options`.
    ///
    /// A value option takes the next argument whatever it holds (`--config --json` names the folder `--json`),
    /// or the text after its first `=`. `--` ends the options; `-` (standard input) is a positional argument.
    ///
    /// - Throws: ``CLIError/missingValue(_:command:)`` for a value option with nothing after it, and
    ///   ``CLIError/unknownOption(_:command:)`` for any other argument that starts with `-`, a flag given a value
    ///   (`--json=x`) included.
    init(_ arguments: [[UInt8]], options: [CommandOption], command: String) throws(CLIError) {
        var optionsEnded = false
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            let text = String(decoding: argument, as: UTF8.self)
            if optionsEnded || text == "-" || !text.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if text == "--" {
                optionsEnded = true
                continue
            }
            let equals = text.firstIndex(of: "=")
            let name = String(text[..<(equals ?? text.endIndex)])
            let attached = equals.map { String(text[text.index(after: $0)...]) }
            switch options.first(where: { $0.name == name })?.kind {
            case .flag where attached == nil:
                flags.insert(name)
            case .value:
                if let attached {
                    values[name] = attached
                } else {
                    guard index < arguments.endIndex else { throw .missingValue(name, command: command) }
                    values[name] = String(decoding: arguments[index], as: UTF8.self)
                    index += 1
                }
            case .flag, nil:
                throw .unknownOption(text, command: command)
            }
        }
    }

    /// Refuses positional arguments, for a command that takes none.
    ///
    /// - Throws: ``CLIError/unknownOption(_:command:)`` naming the first one.
    func requireNoPositionals(command: String) throws(CLIError) {
        guard let first = positionals.first else { return }
        throw .unknownOption(String(decoding: first, as: UTF8.self), command: command)
    }

    /// The positional arguments of a command that takes URL schemes, as given, each one linkd may register.
    ///
    /// - Throws: ``CLIError/refusedScheme(_:command:)`` for the first that ``Registrar/validate(_:)`` refuses.
    func schemes(command: String) throws(CLIError) -> [String] {
        let schemes = positionals.map { String(decoding: $0, as: UTF8.self) }
        for scheme in schemes {
            do throws(Registrar.Problem) {
                _ = try Registrar.validate(scheme)
            } catch {
                throw .refusedScheme(error, command: command)
            }
        }
        return schemes
    }

    /// The positional arguments of a command that takes links: at least one, and `-` at most once.
    ///
    /// - Throws: ``CLIError/missingArgument(_:command:)`` for none, ``CLIError/stdinTwice(command:)`` for a second `-`.
    func links(command: String) throws(CLIError) -> [[UInt8]] {
        guard !positionals.isEmpty else { throw .missingArgument("<url>", command: command) }
        guard positionals.filter({ $0 == Array("-".utf8) }).count <= 1 else { throw .stdinTwice(command: command) }
        return positionals
    }
}
