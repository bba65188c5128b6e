/// An entry's `Exec=` command, read as the Desktop Entry Specification says, and the argv that opens one URL with it.
///
/// The value (string escapes already resolved) is split into arguments at spaces; an argument may be quoted whole in
/// double quotes, inside which `\"`, `` \` ``, `\$` and `\\` stand for the character itself. A reserved character
/// outside quotes makes the line invalid. Field codes: `%u` or `%U` is the URL, as one argument; `%f` and `%F` (files)
/// cannot take a URL; `%i` is `--icon ICON` (or nothing), `%c` the entry's name, `%k` its file, `%%` a `%`; the
/// deprecated `%d %D %n %N %v %m` are dropped; any other code makes the line invalid, and so does a code in a quoted
/// argument. Flatpak's `@@u %u @@` stays as written: `flatpak run` reads those markers itself.
package struct DesktopExec: Sendable, Equatable {
    /// One argument of the command: plain text, or text holding field codes (unquoted).
    enum Word: Sendable, Equatable {
        case text(String)
        case codes([Piece])
    }

    /// A part of an unquoted argument.
    enum Piece: Sendable, Equatable {
        case text(String)
        case code(Character)
    }

    /// Why a command cannot open a URL.
    package enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case unclosedQuote
        case reservedCharacter(Character)
        case unknownCode(Character)
        case codeInQuotes
        case fileCode(Character)
        case noURLCode
        case severalURLCodes
        case codeNotAlone(Character)
        case equalsInProgram

        package var description: String {
            switch self {
            case .empty: "Exec= is empty"
            case .unclosedQuote: "Exec= has a quote that is not closed"
            case .reservedCharacter(let character): "Exec= has '\(character)' outside quotes"
            case .unknownCode(let code): "Exec= has the unknown field code %\(code)"
            case .codeInQuotes: "Exec= has a field code inside quotes"
            case .fileCode(let code): "Exec= takes files (%\(code)), not a URL"
            case .noURLCode: "Exec= has no %u or %U: the browser would start without the link"
            case .severalURLCodes: "Exec= has more than one %u, %U, %f or %F"
            case .codeNotAlone(let code): "Exec= has %\(code) joined to other text"
            case .equalsInProgram: "Exec='s program name has '='"
            }
        }
    }

    let words: [Word]

    private init(words: [Word]) {
        self.words = words
    }

    static let reserved: Set<Character> = [
        "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`",
    ]
    static let deprecated: Set<Character> = ["d", "D", "n", "N", "v", "m"]

    /// Reads `value`, the `Exec=` key's value with its string escapes resolved; with `opensURLs`, it must be a command
    /// that opens a URL (a browser's), else it may start an app with no URL at all.
    ///
    /// - Throws: ``Problem`` when the command is not one that opens a URL (with `opensURLs`), or cannot be read.
    package init(parsing value: String, opensURLs: Bool = true) throws(Problem) {
        var words: [Word] = []
        var characters = Array(value)[...]
        while let first = characters.first {
            if first == " " {
                characters = characters.dropFirst()
            } else if first == "\"" {
                characters = characters.dropFirst()
                words.append(try Self.quotedWord(&characters))
            } else {
                words.append(try Self.word(&characters))
            }
        }
        if opensURLs {
            try Self.check(words)
        } else if words.isEmpty {
            throw .empty
        }
        self.words = words
    }

    /// The rest of a quoted word, after its opening quote: its text, with `\"`, `` \` ``, `\$` and `\\` unescaped.
    private static func quotedWord(_ characters: inout ArraySlice<Character>) throws(Problem) -> Word {
        var text = ""
        while let next = characters.popFirst() {
            if next == "\"" { return .text(text) }
            if next == "\\", let escaped = characters.first, "\"`$\\".contains(escaped) {
                text.append(escaped)
                characters = characters.dropFirst()
                continue
            }
            if next == "%" { throw .codeInQuotes }
            text.append(next)
        }
        throw .unclosedQuote
    }

    /// An unquoted word, up to the next space: its text, or its text and field codes.
    private static func word(_ characters: inout ArraySlice<Character>) throws(Problem) -> Word {
        var pieces: [Piece] = []
        var text = ""
        while let next = characters.first, next != " " {
            characters = characters.dropFirst()
            if next == "\"" { throw .reservedCharacter(next) }
            if reserved.contains(next) { throw .reservedCharacter(next) }
            guard next == "%" else {
                text.append(next)
                continue
            }
            guard let code = characters.popFirst() else { throw .unknownCode(" ") }
            if code == "%" {
                text.append("%")
                continue
            }
            guard "uUfFick".contains(code) || deprecated.contains(code) else { throw .unknownCode(code) }
            if !text.isEmpty { pieces.append(.text(text)) }
            text = ""
            pieces.append(.code(code))
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        return pieces.contains { if case .code = $0 { true } else { false } } ? .codes(pieces) : .text(text)
    }

    /// Whether `words` open a URL: a program with no `=`, no file code, one URL code, and `%u`, `%U` or `%i` each a
    /// word of its own.
    private static func check(_ words: [Word]) throws(Problem) {
        guard !words.isEmpty else { throw .empty }
        if case .text(let program) = words[0], program.contains("=") { throw .equalsInProgram }
        let codes = words.flatMap { word -> [Character] in
            guard case .codes(let pieces) = word else { return [] }
            return pieces.compactMap { if case .code(let code) = $0 { code } else { nil } }
        }
        let fileCodes = codes.filter { "fF".contains($0) }
        if let file = fileCodes.first { throw .fileCode(file) }
        let urlCodes = codes.filter { "uU".contains($0) }
        guard !urlCodes.isEmpty else { throw .noURLCode }
        guard urlCodes.count == 1 else { throw .severalURLCodes }
        for word in words {
            guard case .codes(let pieces) = word, pieces.count > 1 else { continue }
            for case .code(let code) in pieces where "uUi".contains(code) { throw .codeNotAlone(code) }
        }
    }

    /// The argv that starts the app with no URL or file: each word that is a URL or file code alone is left out, and
    /// what ``argv(opening:name:icon:file:)`` does with the others.
    package func argvStarting(name: String = "", icon: String? = nil, file: String = "") -> [String] {
        let opening = words.filter { word in
            guard case .codes(let pieces) = word, pieces.count == 1, case .code(let code) = pieces[0] else {
                return true
            }
            return !"uUfF".contains(code)
        }
        return DesktopExec(words: opening).argv(opening: "", name: name, icon: icon, file: file)
    }

    /// The argv that opens `url`: `name`, `icon` and `file` are the entry's `Name`, `Icon` and file path.
    package func argv(opening url: String, name: String = "", icon: String? = nil, file: String = "") -> [String] {
        words.flatMap { word -> [String] in
            switch word {
            case .text(let text): return [text]
            case .codes(let pieces):
                if pieces == [.code("i")] { return icon.map { ["--icon", $0] } ?? [] }
                if pieces.count == 1, case .code(let code) = pieces[0], Self.deprecated.contains(code) { return [] }
                var argument = ""
                for piece in pieces {
                    switch piece {
                    case .text(let text): argument += text
                    case .code("u"), .code("U"): argument += url
                    case .code("c"): argument += name
                    case .code("k"): argument += file
                    case .code: break  // deprecated: dropped
                    }
                }
                return [argument]
            }
        }
    }
}
