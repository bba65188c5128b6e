/// What a command line of a command is, beyond its option table: the forms it takes, the words and arguments of each,
/// and which options each has where. The `USAGE:` line (``usage(of:options:)``), the man page's SYNOPSIS
/// (``ManSynopsis``) and the shells' completion scripts (``BashCompletion``, ``ZshCompletion``, ``FishCompletion``)
/// are written from it and the option table.
struct Synopsis: Sendable {
    /// One part of a form.
    indirect enum Element: Sendable, Hashable {
        /// A word that selects what the command does, and so the options that follow it: `request` of
        /// `linkd reset request`. It is the first word of its form; `summary` describes it in the completions.
        case action(String, summary: String)
        /// An option of the command's table that the form needs: `--app <name>`.
        case option(String)
        /// An option of the command's table that the form may have: `[--json]`.
        case optional(String)
        /// What is not an option: links, schemes, a shell.
        case arguments(Argument)
        /// One of these sequences: `(--email <address> [--code] | --provider <provider>)`.
        case oneOf([[Element]])
    }

    /// The arguments of a form that are not options.
    struct Argument: Sendable, Hashable {
        /// Its name, as the usage line shows it (`url` of `<url> ...`) and the completions describe it.
        let name: String
        /// What it is, in the completions' words (`URL scheme`).
        let summary: String
        /// What a shell offers for it; an argument of `.words` shows its words (`bash|zsh|fish`), not its name.
        let values: ValueCompletion
        /// Whether it may be given more than once (`<url> ...`).
        let repeats: Bool
        /// Whether the form may have none (`[<scheme> ...]`).
        let isOptional: Bool

        /// One or more links; `-` reads them from standard input.
        static let links = Argument(name: "url", summary: "link", values: .links, repeats: true, isOptional: false)
        /// Any number of URL schemes, completed from those the installed apps claim.
        static let schemes = Argument(
            name: "scheme",
            summary: "URL scheme",
            values: .installed(.schemes),
            repeats: true,
            isOptional: true
        )
    }

    /// The forms of the command line, in the order the man page lists them.
    let forms: [[Element]]

    init(_ forms: [Element]...) { self.forms = forms }

    /// Whether a form may be nothing but optional parts.
    static func isOptional(_ form: some Collection<Element>) -> Bool {
        form.allSatisfy { element in
            switch element {
            case .optional: true
            case .arguments(let argument): argument.isOptional
            default: false
            }
        }
    }

    /// The `USAGE:` line: the forms, their common end written once after them
    /// (`(request | --code [--code-stdin]) --app <name> ...`), in brackets when one may be nothing but optional parts
    /// (that one last: `[--web | [--system] [<scheme> ...]]`).
    func usage(of command: String, options: [CommandOption]) -> String {
        var tail: [Element] = []
        var forms = forms.map { $0[...] }
        while forms.count > 1, let last = forms[0].last, forms.allSatisfy({ $0.last == last }) {
            tail.insert(last, at: 0)
            forms = forms.map { $0.dropLast() }
        }
        let rendered: String
        if forms.count == 1 {
            rendered = Self.text(of: Array(forms[0]), options)
        } else {
            let optional = forms.filter { Self.isOptional($0) }
            let alternatives = (forms.filter { !Self.isOptional($0) } + optional).map {
                Self.text(of: Array($0), options)
            }
            let (open, close) = optional.isEmpty ? ("(", ")") : ("[", "]")
            rendered = open + alternatives.joined(separator: " | ") + close
        }
        return (["linkd", command, rendered] + (tail.isEmpty ? [] : [Self.text(of: tail, options)])).joined(
            separator: " "
        )
    }

    /// A sequence of elements as the usage line writes it.
    private static func text(of elements: [Element], _ options: [CommandOption]) -> String {
        elements.map { element in
            switch element {
            case .action(let word, _): word
            case .option(let name): option(name, in: options).label
            case .optional(let name): "[\(option(name, in: options).label)]"
            case .arguments(let argument):
                argument.isOptional ? "[\(argumentText(argument))]" : argumentText(argument)
            case .oneOf(let branches):
                "(" + branches.map { text(of: $0, options) }.joined(separator: " | ") + ")"
            }
        }.joined(separator: " ")
    }

    private static func argumentText(_ argument: Argument) -> String {
        let one =
            if case .words(let words) = argument.values { words.joined(separator: "|") } else { "<\(argument.name)>" }
        return argument.repeats ? one + " ..." : one
    }

    /// The option of `options` named `name`; a synopsis names only options of its command's table
    /// (`OptionTableTests` checks it).
    static func option(_ name: String, in options: [CommandOption]) -> CommandOption {
        guard let option = options.first(where: { $0.name == name }) else {
            preconditionFailure("the synopsis names \(name), which is not in the command's option table")
        }
        return option
    }

    /// The options a sequence of elements names, in their order, those of a choice's every branch included.
    static func optionNames(in elements: [Element]) -> [String] {
        elements.flatMap { element -> [String] in
            switch element {
            case .option(let name), .optional(let name): [name]
            case .oneOf(let branches): branches.flatMap { optionNames(in: $0) }
            case .action, .arguments: []
            }
        }
    }
}

/// What a shell offers for a value: an option's, or an argument's.
enum ValueCompletion: Sendable, Hashable {
    /// Nothing: the value is the user's own (an email address, a number of seconds).
    case nothing
    /// The folders.
    case folders
    /// The files.
    case files
    /// The names `linkd completions --list` prints: the installed apps, or the schemes they claim.
    case installed(InstalledNames)
    /// One of these words.
    case words([String])
    /// Nothing for a link, but `-` (one link per line from standard input) once a `-` is typed.
    case links
}

/// The names of the installed apps.d folders that `linkd completions --list` prints.
enum InstalledNames: String, Sendable, Hashable, CaseIterable {
    /// The apps' names (`"app"`), for `--app`.
    case apps
    /// The schemes the apps claim and linkd may register, for `register`.
    case schemes
}
