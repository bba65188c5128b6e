import LinkdConfig
import LinkdDesktop
import LinkdWire

/// `linkd completions bash|zsh|fish`: the shell's completion script; `--list apps|schemes`: the words the scripts
/// complete from the installed apps.d folders.
struct CompletionsCommand: Command {
    /// A shell linkd has a completion script for.
    enum Shell: String, CaseIterable {
        case bash, zsh, fish

        /// The script, as the package installs it: written from the command table.
        var script: String {
            switch self {
            case .bash: BashCompletion.script(for: LinkdCLI.commands)
            case .zsh: ZshCompletion.script(for: LinkdCLI.commands)
            case .fish: FishCompletion.script(for: LinkdCLI.commands)
            }
        }
    }

    /// What the command prints.
    enum Output: Equatable {
        case script(Shell)
        /// The names of the installed apps, or the schemes they claim, one a line.
        case installed(InstalledNames)
    }

    static let name = "completions"
    static let abstract = "Print the shell completion script for bash, zsh or fish."
    static let synopsis = Synopsis([.arguments(shell)], [.option("--list")])
    /// The shell whose script to print.
    static let shell = Synopsis.Argument(
        name: "shell",
        summary: "shell",
        values: .words(Shell.allCases.map(\.rawValue)),
        repeats: false,
        isOptional: false
    )
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        \(CommandOption.helpBlock(options))

        The package installs the scripts where each shell finds them; to try one by hand:
          source <(linkd completions bash)
          linkd completions zsh > ~/.zfunc/_linkd
          linkd completions fish > ~/.config/fish/completions/linkd.fish

        """

    static let options: [CommandOption] = [
        .value(
            "--list",
            "apps|schemes",
            "Print the names of the installed apps, or the schemes they claim, one a line (the scripts "
                + "complete '--app' and 'register' with them).",
            values: .words(InstalledNames.allCases.map(\.rawValue))
        )
    ]

    var output: Output

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        let words = scanner.positionals.map { String(decoding: $0, as: UTF8.self) }
        if let list = scanner.values["--list"] {
            guard words.isEmpty else { throw .conflict("--list", words[0], command: Self.name) }
            guard let names = InstalledNames(rawValue: list) else {
                throw .badValue(list, option: "--list", command: Self.name)
            }
            output = .installed(names)
            return
        }
        guard let word = words.first else { throw .missingArgument("bash|zsh|fish", command: Self.name) }
        guard words.count == 1, let shell = Shell(rawValue: word) else {
            throw .badValue(words.count == 1 ? word : words[1], option: "<shell>", command: Self.name)
        }
        output = .script(shell)
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        switch output {
        case .script(let shell):
            console.write(shell.script)
        case .installed(.apps):
            for name in Set(ConfigLoader.installed(actions: .linkd).load().apps.map(\.app)).sorted() {
                console.write(name + "\n")
            }
        case .installed(.schemes):
            for scheme in Registrar.claimedSchemes(of: ConfigLoader.installed(actions: .linkd).load().apps) {
                console.write(scheme + "\n")
            }
        }
        return .success
    }
}
