/// The bash completion script that `linkd completions bash` prints and the package installs: a fixed frame (its
/// helper, how it reads the words with or without bash-completion), and what is written from the command table: the
/// commands, the values each value option completes to, and each command's options, actions and arguments.
enum BashCompletion {
    /// The script for `commands`.
    static func script(for commands: [any Command.Type]) -> String {
        let completed = commands.completed
        return head
            + "    local commands=\(quoted(completed.map(\.name).joined(separator: " ")))\n"
            + middle + values(of: CompletedCommand.valueOptions(of: completed)) + beforeCommands
            + completed.map(commandCase).joined() + tail
    }

    /// The `case $prev in` arms: what each value option's value completes to.
    private static func values(of options: [CommandOption]) -> String {
        var groups: [(values: ValueCompletion, names: [String])] = []
        for option in options {
            if let index = groups.firstIndex(where: { $0.values == option.values }) {
                groups[index].names.append(option.name)
            } else {
                groups.append((option.values, [option.name]))
            }
        }
        return groups.map { group in
            let pattern = "            \(group.names.joined(separator: " | ")))\n"
            let indent = "                "
            switch group.values {
            case .folders, .files:
                let (filedir, compgen) = group.values == .folders ? ("_filedir -d", "-d") : ("_filedir", "-f")
                return pattern + indent + "if declare -F _filedir >/dev/null; then \(filedir); else\n" + indent
                    + "    compopt -o filenames 2>/dev/null\n" + indent
                    + "    COMPREPLY=($(compgen \(compgen) -- \"$cur\"))\n" + indent + "fi\n" + indent + "return ;;\n"
            case .installed(let names):
                return pattern + indent + "_linkd_lines < <(\"$linkd\" completions --list \(names.rawValue) "
                    + "2>/dev/null </dev/null)\n" + indent + "return ;;\n"
            case .words(let words):
                return pattern + indent + "COMPREPLY=($(compgen -W \(quoted(words.joined(separator: " "))) "
                    + "-- \"$cur\"))\n" + indent + "return ;;\n"
            case .nothing, .links:
                return pattern + indent + "return ;;\n"
            }
        }.joined()
    }

    /// The `case $command in` arm of one command: its options, the words after it, the list its arguments come from.
    private static func commandCase(_ command: CompletedCommand) -> String {
        func options(_ options: [CommandOption]) -> String {
            "options=" + quoted((options.map(\.name) + (command.takesLinks ? ["-"] : [])).joined(separator: " "))
        }
        let firstWords = "values=" + quoted(command.firstWords.joined(separator: " "))
        var settings = [options(command.plainOptions)]
        for case .installed(let names) in command.repeatedArguments.map(\.values) {
            settings.append("list=\(names.rawValue)")
        }
        guard !command.actions.isEmpty else {
            if !command.firstWords.isEmpty { settings[settings.count - 1] += ";" }
            let words = command.firstWords.isEmpty ? [] : ["((cword == 2)) && " + firstWords]
            return "        \(command.name)) " + (settings + words).joined(separator: " ") + " ;;\n"
        }
        var text = "        \(command.name))\n"
        text += "            # \(CompletedCommand.actionComment(command))\n"
        text +=
            "            if ((cword == 2)); then\n                \(settings.joined(separator: " ")) \(firstWords)\n"
        for action in command.actions {
            text += "            elif [[ ${words[2]} == \(action.word) ]]; then\n"
            text += "                \(options(action.options))\n"
        }
        return text + "            else\n                \(settings.joined(separator: " "))\n            fi ;;\n"
    }

    /// `text` in single quotes.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    private static let head = #"""
        # bash completion for linkd: its subcommands and their options, the app names and URL schemes of the
        # installed apps.d folders (from `linkd completions --list apps|schemes`), folders and files where an
        # option's value is one. Links get no completion. `linkd completions bash` prints this script, which it
        # writes from linkd's command table.

        # COMPREPLY: the lines of standard input that start with $cur, quoted for the command line.
        _linkd_lines()
        {
            local line
            COMPREPLY=()
            while IFS= read -r line; do
                [[ -n $line && $line == "$cur"* ]] || continue
                printf -v line %q "$line"
                COMPREPLY+=("$line")
            done
        }

        _linkd()
        {
            local cur prev words cword split=false
            if declare -F _init_completion >/dev/null; then
                _init_completion -s || return
            else
                # Without bash-completion, `--opt=value` arrives as three words: --opt, = and value.
                words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
                cur=${words[cword]} prev=${words[cword - 1]}
                if [[ $cur == = ]]; then
                    cur= split=true
                elif [[ $prev == = ]] && ((cword > 2)); then
                    prev=${words[cword - 2]} split=true
                fi
            fi
            local linkd=${words[0]} command=${words[1]-} i ended=false

        """#

    private static let middle = #"""
            for ((i = 2; i < cword; i++)); do
                [[ ${words[i]} == -- ]] && ended=true
            done

            if ((cword == 1)); then
                if [[ $cur == -* ]]; then
                    COMPREPLY=($(compgen -W '-h --help --version' -- "$cur"))
                else
                    COMPREPLY=($(compgen -W "$commands" -- "$cur"))
                fi
                return
            fi

            # The value of an option.
            if ! $ended; then
                case $prev in

        """#

    private static let beforeCommands = #"""
                esac
            fi
            $split && return

            local options= values= list=
            case $command in
                -h | --help | help)
                    ((cword == 2)) && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
                    return ;;

        """#

    private static let tail = #"""
                *) return ;;
            esac
            if [[ $cur == -* ]] && ! $ended; then
                # `-` (a link per line from standard input) is offered with the options, once a `-` is typed.
                COMPREPLY=($(compgen -W "$options -h --help" -- "$cur"))
            elif [[ -n $list ]]; then
                _linkd_lines < <("$linkd" completions --list "$list" 2>/dev/null </dev/null)
            else
                COMPREPLY=($(compgen -W "$values" -- "$cur"))
            fi
        }

        complete -F _linkd linkd

        """#
}
