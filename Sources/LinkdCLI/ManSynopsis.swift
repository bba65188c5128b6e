/// The SYNOPSIS of linkd(1) (`share/man/man1/linkd.1`), in troff, written from each command's ``Synopsis`` and option
/// table: a line for each form of each command, the forms apart by `.br`. Words are bold (`linkd`, an action, an
/// option), values and arguments italic, brackets, parentheses and bars roman.
enum ManSynopsis {
    /// A font of the page.
    private enum Font: Character {
        case bold = "B"
        case italic = "I"
        case roman = "R"
    }

    /// One word as the page shows it: runs of text in one font each, with no space between them.
    private typealias Word = [(font: Font, text: String)]

    /// The lines between `.SH SYNOPSIS` and the next section, each ending in a line feed.
    static func text(for commands: [any Command.Type]) -> String {
        commands.flatMap { command in
            command.synopsis.forms.map { form in
                lines(of: [[(.bold, "linkd")], [(.bold, command.name)]] + words(of: form, command.options))
            }
        }.joined(separator: ".br\n")
    }

    /// The words of a sequence of elements.
    private static func words(of elements: [Synopsis.Element], _ options: [CommandOption]) -> [Word] {
        elements.flatMap { element -> [Word] in
            switch element {
            case .action(let word, _):
                return [[(.bold, word)]]
            case .option(let name):
                return optionWords(Synopsis.option(name, in: options))
            case .optional(let name):
                return bracketed(optionWords(Synopsis.option(name, in: options)), "[", "]")
            case .arguments(let argument):
                let word: Word =
                    if case .words(let words) = argument.values { alternatives(words) } else {
                        [(.italic, argument.name)]
                    }
                let repeated = argument.repeats ? word + [(.roman, "...")] : word
                return argument.isOptional ? bracketed([repeated], "[", "]") : [repeated]
            case .oneOf(let branches):
                let joined = branches.map { words(of: $0, options) }.joined(separator: [[(.roman, "|")]])
                return bracketed(Array(joined), "(", ")")
            }
        }
    }

    /// An option, and its value if it takes one: `--config` `dir`, `--list` `apps|schemes`.
    private static func optionWords(_ option: CommandOption) -> [Word] {
        guard option.kind == .value else { return [[(.bold, option.name)]] }
        if option.placeholder.hasPrefix("<") {
            return [[(.bold, option.name)], [(.italic, String(option.placeholder.dropFirst().dropLast()))]]
        }
        return [[(.bold, option.name)], alternatives(option.placeholder.split(separator: "|").map(String.init))]
    }

    /// Words to choose one of, bold, apart by roman bars: `bash|zsh|fish`.
    private static func alternatives(_ words: [String]) -> Word {
        Array(words.map { [(Font.bold, $0)] }.joined(separator: [(.roman, "|")]))
    }

    /// `words` with `open` before the first and `close` after the last.
    private static func bracketed(_ words: [Word], _ open: String, _ close: String) -> [Word] {
        var words = words
        words[0].insert((.roman, open), at: 0)
        words[words.count - 1].append((.roman, close))
        return words
    }

    /// The troff lines of one form: bold words one after the other on one `.B` line, a word of one other font on a
    /// `.I` line (or as it is, roman), a word of two fonts on a line of the alternating macro (`.RB [ \-\-json ]`).
    private static func lines(of words: [Word]) -> String {
        var text = ""
        var bold: [String] = []
        for word in words {
            let runs = merged(word)
            if runs.count == 1 && runs[0].font == .bold {
                bold.append(escaped(runs[0].text))
                continue
            }
            if !bold.isEmpty { text += ".B " + bold.joined(separator: " ") + "\n" }
            bold = []
            if runs.count == 1 {
                text += (runs[0].font == .italic ? ".I " : "") + escaped(runs[0].text) + "\n"
            } else {
                let macro = "." + String([runs[0].font.rawValue, runs[1].font.rawValue])
                text += macro + " " + runs.map { escaped($0.text) }.joined(separator: " ") + "\n"
            }
        }
        return text + (bold.isEmpty ? "" : ".B " + bold.joined(separator: " ") + "\n")
    }

    /// `word` with runs of the same font next to each other made one.
    private static func merged(_ word: Word) -> Word {
        word.reduce(into: Word()) { runs, run in
            if let last = runs.last, last.font == run.font {
                runs[runs.count - 1].text += run.text
            } else {
                runs.append(run)
            }
        }
    }

    /// `text` with its dashes as troff's minus signs.
    private static func escaped(_ text: String) -> String {
        text.replacing("-", with: #"\-"#)
    }
}
