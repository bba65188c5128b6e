/// One row of a command's option table: a flag, or an option that takes a value, with its one line of help.
///
/// The table is the one place an option is declared: the scanner reads arguments by it, the `OPTIONS:` block of
/// `--help` is written from it (``helpBlock(_:)``), and with the command's ``Synopsis`` so are the usage line, the
/// man page's SYNOPSIS and the shells' completion scripts.
struct CommandOption: Sendable, Hashable {
    /// Whether the option stands alone or takes a value.
    enum Kind: Sendable, Hashable {
        /// Present or absent (`--json`); `--json=x` is an unknown option.
        case flag
        /// Takes a value, as the next argument (`--config DIR`) or after `=` (`--config=DIR`).
        case value
    }

    /// The option as typed, with its dashes (`--config`).
    let name: String
    /// Whether it takes a value.
    let kind: Kind
    /// What its value is, as help shows it (`<dir>`, `apps|schemes`); empty for a flag.
    let placeholder: String
    /// What it does, one or more sentences; ``helpBlock(_:)`` wraps it.
    let help: String
    /// What the shells offer for its value: `.nothing` for a flag.
    let values: ValueCompletion

    /// A flag such as `--json`.
    static func flag(_ name: String, _ help: String) -> CommandOption {
        CommandOption(name: name, kind: .flag, placeholder: "", help: help, values: .nothing)
    }

    /// An option that takes a value, such as `--config <dir>`, which the shells complete with `values`.
    static func value(
        _ name: String,
        _ placeholder: String,
        _ help: String,
        values: ValueCompletion
    )
        -> CommandOption
    {
        CommandOption(name: name, kind: .value, placeholder: placeholder, help: help, values: values)
    }

    /// The option as the left column of help shows it: `--config <dir>`.
    var label: String { placeholder.isEmpty ? name : "\(name) \(placeholder)" }

    /// Its help's first sentence, without the period: what the completions show beside it.
    var summary: String { Self.firstSentence(of: help) }

    /// The first sentence of `text` (up to the first `. `), without its period.
    static func firstSentence(of text: String) -> String {
        let sentence = text.firstRange(of: ". ").map { String(text[..<$0.lowerBound]) } ?? text
        return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }

    /// How wide help's lines are, at most, and where the help of each option starts.
    private static let (width, column) = (100, 26)

    /// The `OPTIONS:` block of a command's help, ending with `-h, --help` (and no line feed): each option's label,
    /// then its help wrapped at word boundaries (a label as wide as the column or wider has its help start on the next
    /// line).
    static func helpBlock(_ options: [CommandOption]) -> String {
        let rows = options.map { ($0.label, $0.help) } + [("-h, --help", "Show help information.")]
        var text = "OPTIONS:\n"
        for (label, help) in rows {
            var line = "  " + label
            if line.count >= column - 1 {
                text += line + "\n"
                line = ""
            }
            line += String(repeating: " ", count: column - line.count)
            var atStart = true
            for word in help.split(separator: " ") {
                if !atStart && line.count + 1 + word.count > width {
                    text += line + "\n"
                    line = String(repeating: " ", count: column)
                    atStart = true
                }
                line += (atStart ? "" : " ") + word
                atStart = false
            }
            text += line + "\n"
        }
        return String(text.dropLast())  // the help text's own line ends the block
    }
}
