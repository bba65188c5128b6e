/// The fish completion script that `linkd completions fish` prints and the package installs: a fixed frame (its
/// helper functions, `--version` and `--help`), and what is written from the command table: the commands with their
/// abstracts, and for each command its actions, arguments and options, with their help and what their values
/// complete to.
enum FishCompletion {
    /// The script for `commands`.
    static func script(for commands: [any Command.Type]) -> String {
        let completed = commands.completed
        var text = head
        for command in completed {
            text += "complete -c linkd -n __linkd_needs_command -a \(command.name) -d \(quoted(command.summary))\n"
        }
        text += middle
        let linkCommands = completed.filter(\.takesLinks).map(\.name)
        if !linkCommands.isEmpty {
            text +=
                "\n# Links get no completion; `-` reads one link per line from standard input, offered once a `-` is "
                + "typed.\n"
            let condition =
                "__linkd_is \(linkCommands.joined(separator: " ")); and string match -q -- \"-*\" (commandline -ct)"
            text += "complete -c linkd -n \(quoted(condition)) -a - -d 'Read links from standard input'\n"
        }
        return text + completed.map { "\n" + lines(of: $0) }.joined()
    }

    /// The lines of one command: its actions and first words, its arguments, its options.
    private static func lines(of command: CompletedCommand) -> String {
        let own = "__linkd_is \(command.name)"
        var text = ""
        for action in command.actions {
            text +=
                "complete -c linkd -n \(quoted(own + "; and __linkd_words 1")) -a \(action.word) "
                + "-d \(quoted(action.summary))\n"
        }
        for argument in command.firstArguments {
            guard let values = arguments(for: argument.values) else { continue }
            text +=
                "complete -c linkd -n \(quoted(own + "; and __linkd_words 1")) \(values) "
                + "-d \(quoted(argument.summary))\n"
        }
        for argument in command.repeatedArguments {
            guard let values = arguments(for: argument.values) else { continue }
            text += "complete -c linkd -n \(quoted(own)) \(values) -d \(quoted(argument.summary))\n"
        }
        for option in command.options {
            let name = option.name.drop { $0 == "-" }
            let values = option.kind == .flag ? "" : " " + self.values(of: option.values)
            text +=
                "complete -c linkd -n \(quoted(own + condition(of: option, in: command))) -l \(name)\(values) "
                + "-d \(quoted(option.summary))\n"
        }
        return text
    }

    /// What follows `__linkd_is COMMAND` in an option's condition: which actions it comes after, if not every one.
    private static func condition(of option: CommandOption, in command: CompletedCommand) -> String {
        let after = command.actions.filter { $0.options.contains(option) }.map(\.word)
        let notAfter = command.actions.filter { !$0.options.contains(option) }.map(\.word)
        if command.plainOptions.contains(option) {
            return notAfter.isEmpty ? "" : "; and not __linkd_action \(notAfter.joined(separator: " "))"
        }
        return "; and __linkd_action \(after.joined(separator: " "))"
    }

    /// The `complete` arguments of an option's value.
    private static func values(of values: ValueCompletion) -> String {
        switch values {
        case .nothing, .links: "-x"
        case .files: "-r -F"
        default: "-x " + (arguments(for: values) ?? "")
        }
    }

    /// The `complete` arguments that offer `values` as arguments; `nil` when there are none to offer.
    private static func arguments(for values: ValueCompletion) -> String? {
        switch values {
        case .nothing, .links: nil
        case .folders: "-a '(__linkd_directories)'"
        case .files: "-F"
        case .installed(let names): "-a '(__linkd_list \(names.rawValue))'"
        case .words(let words): "-a \(quoted(words.joined(separator: " ")))"
        }
    }

    /// `text` in single quotes.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    private static let head = #"""
        # fish completion for linkd: its subcommands and their options, the app names and URL schemes of the
        # installed apps.d folders (from `linkd completions --list apps|schemes`), folders and files where an
        # option's value is one. Links get no completion. `linkd completions fish` prints this script, which it
        # writes from linkd's command table.

        # Prints the names `linkd completions --list $argv[1]` gives (apps or schemes).
        function __linkd_list --argument-names what
            set -l linkd (commandline -opc)[1]
            command -q -- $linkd; or return
            command $linkd completions --list $what 2>/dev/null </dev/null
        end

        # True when the subcommand (the first word after linkd) is one of $argv.
        function __linkd_is
            set -l words (commandline -opc)
            set -q words[2]; and contains -- $words[2] $argv
        end

        # True when the action (the word after the subcommand) is one of $argv.
        function __linkd_action
            set -l words (commandline -opc)
            set -q words[3]; and contains -- $words[3] $argv
        end

        # True when the subcommand comes next: right after linkd, or after linkd help (or -h, --help).
        function __linkd_needs_command
            set -l words (commandline -opc)
            test (count $words) -eq 1; or begin
                test (count $words) -eq 2; and contains -- $words[2] help -h --help
            end
        end

        # True when $argv[1] words follow linkd before the one being completed.
        function __linkd_words
            test (count (commandline -opc)) -eq (math $argv[1] + 1)
        end

        # The folders an option's value (`--config DIR` or `--config=DIR`) can name.
        function __linkd_directories
            __fish_complete_directories (string replace -r -- '^--[a-z-]+=' '' (commandline -ct))
        end

        complete -c linkd -f

        complete -c linkd -n '__linkd_words 0' -l version -d 'Show the version'

        """#

    private static let middle = #"""

        # linkd and every subcommand take --help.
        complete -c linkd -n 'not __linkd_is help -h --help --version' -s h -l help -d 'Show help information'

        """#
}
