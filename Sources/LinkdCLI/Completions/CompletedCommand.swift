/// What the shells' completion scripts complete for one command, read from its ``Synopsis`` and option table.
struct CompletedCommand {
    /// A word that selects a form (`request` of `linkd reset request`), and the options that form has.
    struct Action {
        let word: String
        let summary: String
        let options: [CommandOption]
    }

    let name: String
    /// The command's abstract without its period.
    let summary: String
    /// Every option, in the table's order.
    let options: [CommandOption]
    /// The actions, in the synopsis's order.
    let actions: [Action]
    /// The options of the forms that start with no action, in the table's order: what the command takes when the word
    /// after it is no action.
    let plainOptions: [CommandOption]
    /// The arguments a form starts with and takes once (`bash|zsh|fish`): the word right after the command.
    let firstArguments: [Synopsis.Argument]
    /// The arguments a form takes any number of, anywhere: links, schemes.
    let repeatedArguments: [Synopsis.Argument]
    /// For each option in a branch of a choice, the options of the other branches, which it excludes.
    let exclusions: [String: [String]]

    init(_ command: any Command.Type) {
        let synopsis = command.synopsis
        let options = command.options
        func inTableOrder(_ names: some Sequence<String>) -> [CommandOption] {
            let names = Set(names)
            return options.filter { names.contains($0.name) }
        }
        var actions: [Action] = []
        var plain: [String] = []
        var first: [Synopsis.Argument] = []
        var repeated: [Synopsis.Argument] = []
        for form in synopsis.forms {
            if case .action(let word, let summary) = form.first {
                actions.append(
                    Action(word: word, summary: summary, options: inTableOrder(Synopsis.optionNames(in: form)))
                )
            } else {
                plain += Synopsis.optionNames(in: form)
            }
            for (index, element) in form.enumerated() {
                guard case .arguments(let argument) = element else { continue }
                if argument.repeats {
                    repeated.append(argument)
                } else if index == 0 {
                    first.append(argument)
                }
            }
        }
        name = command.name
        summary = CommandOption.firstSentence(of: command.abstract)
        self.options = options
        self.actions = actions
        plainOptions = inTableOrder(plain)
        firstArguments = first
        repeatedArguments = repeated
        exclusions = Self.exclusions(in: synopsis.forms.flatMap { $0 })
    }

    /// The words offered right after the command: its actions, then the words of its first arguments.
    var firstWords: [String] {
        actions.map(\.word)
            + firstArguments.flatMap { argument -> [String] in
                if case .words(let words) = argument.values { words } else { [] }
            }
    }

    /// What a script says of a command with actions: which come first.
    static func actionComment(_ command: CompletedCommand) -> String {
        command.plainOptions.isEmpty ? "The action comes first." : "The action comes first, or the options do."
    }

    /// Whether its arguments are links, for which `-` is offered once a `-` is typed.
    var takesLinks: Bool { repeatedArguments.contains { $0.values == .links } }

    /// The options of each choice's branches that exclude those of its other branches, choices within choices too.
    private static func exclusions(in elements: [Synopsis.Element]) -> [String: [String]] {
        var exclusions: [String: [String]] = [:]
        for case .oneOf(let branches) in elements {
            let names = branches.map { Synopsis.optionNames(in: $0) }
            for (index, own) in names.enumerated() {
                let others = names.enumerated().filter { $0.offset != index }.flatMap(\.element)
                for name in own { exclusions[name, default: []] += others }
            }
            for branch in branches { exclusions.merge(Self.exclusions(in: branch)) { $0 + $1 } }
        }
        return exclusions
    }

    /// The value options of `commands`, each name once (the first command's: a name completes one way in every
    /// command, `OptionTableTests` checks it), in the order the commands name them.
    static func valueOptions(of commands: [CompletedCommand]) -> [CommandOption] {
        var seen: Set<String> = []
        return commands.flatMap(\.options).filter { $0.kind == .value && seen.insert($0.name).inserted }
    }
}

extension [any Command.Type] {
    /// What the completion scripts complete for each command.
    var completed: [CompletedCommand] { map { CompletedCommand($0) } }
}
