/// The zsh completion script (`_linkd`) that `linkd completions zsh` prints and the package installs: a fixed frame
/// (its helpers, the subcommand and help arguments), and what is written from the command table: the commands with
/// their abstracts, and each command's `_arguments` specs, its options with their help and what their values
/// complete to, its actions and arguments.
enum ZshCompletion {
    /// The script for `commands`.
    static func script(for commands: [any Command.Type]) -> String {
        let completed = commands.completed
        let described = completed.map { "    " + quoted($0.name + ":" + $0.summary.replacing(":", with: #"\:"#)) }
        return head + described.joined(separator: "\n") + "\n" + middle + completed.map(commandCase).joined() + tail
    }

    /// The `case $words[1] in` arm of one command.
    private static func commandCase(_ command: CompletedCommand) -> String {
        let arguments =
            command.firstArguments.map { "1:\($0.summary):\(action(for: $0.values))" }
            + command.repeatedArguments.map { "*:\($0.summary):\(action(for: $0.values))" }
        func specs(_ options: [CommandOption]) -> [String] {
            options.map { spec(of: $0, excluding: command.exclusions[$0.name] ?? []) }
        }
        guard !command.actions.isEmpty else {
            return "        \(command.name))\n"
                + call(specs(command.options) + arguments, indent: "          ") + " ;;\n"
        }
        var text = "        \(command.name))\n          # \(CompletedCommand.actionComment(command))\n"
        for (index, action) in command.actions.enumerated() {
            text += "          \(index == 0 ? "if" : "elif") [[ $words[2] == \(action.word) ]]; then\n"
            text += call(specs(action.options) + ["1:action:(\(action.word))"], indent: "            ") + "\n"
        }
        let first = "1:action:(\(command.firstWords.joined(separator: " ")))"
        text += "          else\n            local -a action=()\n"
        text += "            (( CURRENT == 2 )) && action=(\(quoted(first)))\n"
        let call = call(specs(command.plainOptions) + arguments, indent: "            ", then: "$action")
        return text + call + "\n          fi ;;\n"
    }

    /// `_arguments -S $help` with `specs`, one a line, then `then` (unquoted) and `&& ret=0`.
    private static func call(_ specs: [String], indent: String, then: String? = nil) -> String {
        let words = ["_arguments -S $help"] + specs.map(quoted) + (then.map { [$0] } ?? [])
        return indent + words.joined(separator: " \\\n" + indent + "  ") + " && ret=0"
    }

    /// The `_arguments` spec of an option: `(excluded)--json[help]`, `--config=[help]:message:action`.
    private static func spec(of option: CommandOption, excluding excluded: [String]) -> String {
        let description = option.summary.replacing("[", with: #"\["#).replacing("]", with: #"\]"#)
        let exclusion = excluded.isEmpty ? "" : "(\(excluded.joined(separator: " ")))"
        guard option.kind == .value else { return "\(exclusion)\(option.name)[\(description)]" }
        let message =
            option.placeholder.hasPrefix("<")
            ? String(option.placeholder.dropFirst().dropLast()) : String(option.name.drop { $0 == "-" })
        return "\(exclusion)\(option.name)=[\(description)]:\(message):\(action(for: option.values))"
    }

    /// What `_arguments` does for a value of `values`.
    private static func action(for values: ValueCompletion) -> String {
        switch values {
        case .nothing: " "
        case .folders: "_files -/"
        case .files: "_files"
        case .installed(let names): "_linkd_list \(names.rawValue)"
        case .words(let words): "(\(words.joined(separator: " ")))"
        case .links: "_linkd_url"
        }
    }

    /// `text` in single quotes.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    private static let head = #"""
        #compdef linkd
        # zsh completion for linkd: its subcommands and their options, the app names and URL schemes of the
        # installed apps.d folders (from `linkd completions --list apps|schemes`), folders and files where an
        # option's value is one. Links get no completion. `linkd completions zsh` prints this script, which it
        # writes from linkd's command table.

        # Offers the names `linkd completions --list KIND` prints; called as `_linkd_list [compadd options] KIND`.
        _linkd_list() {
          local -a names
          names=(${(f)"$($linkd completions --list $argv[-1] 2>/dev/null </dev/null)"})
          compadd "${(@)argv[1,-2]}" -a names
        }

        # Offers `-` (a link per line from standard input) once a `-` is typed; links themselves get no completion.
        _linkd_url() {
          if [[ $PREFIX == -* ]]; then
            compadd "$@" -- -
          else
            _message -e urls 'link'
          fi
        }

        _linkd() {
          local linkd=$words[1] curcontext=$curcontext state line ret=1
          local -a commands help
          commands=(

        """#

    private static let middle = #"""
          )
          help=('(- *)'{-h,--help}'[Show help information]')

          _arguments -C $help \
            '(- : *)--version[Show the version]' \
            '1:subcommand:->command' \
            '*:: :->arguments' && return

          case $state in
            command)
              _describe -t commands 'linkd subcommand' commands && ret=0 ;;
            arguments)
              curcontext=${curcontext%:*:*}:linkd-$words[1]:
              case $words[1] in
                help)
                  (( CURRENT == 2 )) && _describe -t commands 'linkd subcommand' commands && ret=0 ;;

        """#

    private static let tail = #"""
              esac ;;
          esac
          return ret
        }

        _linkd "$@"

        """#
}
