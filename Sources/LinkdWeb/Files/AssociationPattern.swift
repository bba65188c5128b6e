/// A pattern of an association file (`/help/*`, `/m/????`, `/$(section)/*`), matched against one part of a link the
/// way Apple describes it: `*` matches any run of characters (none too), `?` exactly one, `?*` one or more, and
/// `$(name)` any one of a substitution variable's values. The whole part must match.
///
/// Matching walks the pattern once, keeping every place in the text it may have reached, so that no pattern costs more
/// than its steps (``cost``) times the text's length, whatever its wildcards. A substitution variable is one step of
/// alternatives, its values shared by every pattern that uses it: never multiplied out, so a file's patterns take
/// memory and time in proportion to the file.
package struct AssociationPattern: Sendable, Equatable {
    /// One step of a pattern.
    enum Token: Sendable, Equatable {
        /// One character, itself.
        case scalar(Unicode.Scalar)
        /// Any one character.
        case any
        /// Any run of characters.
        case run
        /// One character of a class (`$(digit)`).
        case oneOf(Set<Unicode.Scalar>)
        /// One of a list of words (`$(region)`).
        case word([[Unicode.Scalar]])
        /// Any one of a custom variable's values, each a run of steps of its own (`*` and `?` among them).
        case alternatives([[Token]])
    }

    /// The steps.
    let tokens: [Token]

    /// A file's custom substitution variables as steps: each value's steps, made once and shared by every pattern
    /// that names the variable.
    static func steps(of variables: [String: [String]]) -> [String: [[Token]]] {
        variables.mapValues { values in values.map(plain) }
    }

    /// The pattern `text` stands for, with `variables` (``steps(of:)``) one step each; predefined variables are single
    /// steps too. An unknown variable is taken as written.
    init(_ text: String, variables: [String: [[Token]]] = [:]) {
        var tokens: [Token] = []
        var scalars = Array(text.unicodeScalars)[...]
        while let first = scalars.first {
            if first == "$", scalars.dropFirst().first == "(", let close = scalars.firstIndex(of: ")") {
                var name = ""
                name.unicodeScalars.append(contentsOf: scalars[(scalars.startIndex + 2)..<close])
                if let step = Self.predefined(name) ?? variables[name].map(Token.alternatives) {
                    tokens.append(step)
                    scalars = scalars[(close + 1)...]
                    continue
                }
            }
            tokens += Self.plain(String(first))
            scalars = scalars.dropFirst()
        }
        self.tokens = tokens
    }

    init(tokens: [Token]) {
        self.tokens = tokens
    }

    /// The steps a match of this pattern walks per character of the text: one a step, the steps of every value for a
    /// custom variable.
    var cost: Int {
        tokens.reduce(0) { total, token in
            guard case .alternatives(let values) = token else { return total + 1 }
            return total + values.reduce(0) { $0 + max(1, $1.count) }
        }
    }

    /// `text` with its wildcards and no variables.
    private static func plain(_ text: String) -> [Token] {
        text.unicodeScalars.map { scalar in
            switch scalar {
            case "*": .run
            case "?": .any
            default: .scalar(scalar)
            }
        }
    }

    /// The step of a predefined variable: `$(alpha)`, `$(upper)`, `$(lower)`, `$(alnum)`, `$(digit)`, `$(xdigit)` are
    /// one character of their class; `$(region)` and `$(lang)` one of the ISO codes.
    private static func predefined(_ name: String) -> Token? {
        let upper = Set(("A" as Unicode.Scalar).value...("Z" as Unicode.Scalar).value).compactMap(Unicode.Scalar.init)
        let lower = Set(("a" as Unicode.Scalar).value...("z" as Unicode.Scalar).value).compactMap(Unicode.Scalar.init)
        let digits = Set(("0" as Unicode.Scalar).value...("9" as Unicode.Scalar).value).compactMap(Unicode.Scalar.init)
        let hex = Array("abcdefABCDEF".unicodeScalars)
        switch name {
        case "alpha": return .oneOf(Set(upper + lower))
        case "upper": return .oneOf(Set(upper))
        case "lower": return .oneOf(Set(lower))
        case "alnum": return .oneOf(Set(upper + lower + digits))
        case "digit": return .oneOf(Set(digits))
        case "xdigit": return .oneOf(Set(digits + hex))
        case "region": return .word(ISOCodes.regions.map { Array($0.unicodeScalars) })
        case "lang": return .word(ISOCodes.languages.map { Array($0.unicodeScalars) })
        default: return nil
        }
    }

    /// Whether the whole of `text` matches; without `caseSensitive`, letters match either case.
    func matches(_ text: String, caseSensitive: Bool) -> Bool {
        let subject = caseSensitive ? Array(text.unicodeScalars) : text.unicodeScalars.map(Self.lower)
        let steps = caseSensitive ? tokens : tokens.map(Self.lowercased)
        // reached[j]: the pattern so far can end just before subject[j].
        var reached = [Bool](repeating: false, count: subject.count + 1)
        reached[0] = true
        return Self.advance(reached, through: steps, in: subject)[subject.count]
    }

    /// Where `steps` can end in `subject`, starting from the places `reached` marks.
    private static func advance(
        _ start: [Bool],
        through steps: some Collection<Token>,
        in subject: [Unicode.Scalar]
    ) -> [Bool] {
        var reached = start
        for step in steps {
            var next = [Bool](repeating: false, count: subject.count + 1)
            switch step {
            case .run:
                guard let first = reached.firstIndex(of: true) else { return next }
                for index in first...subject.count { next[index] = true }
            case .any, .scalar, .oneOf:
                for index in 0..<subject.count where reached[index] && Self.step(step, takes: subject[index]) {
                    next[index + 1] = true
                }
            case .word(let words):
                for index in 0...subject.count where reached[index] {
                    for word in words where subject[index...].starts(with: word) { next[index + word.count] = true }
                }
            case .alternatives(let values):
                for value in values {
                    for (index, ends) in advance(reached, through: value, in: subject).enumerated() where ends {
                        next[index] = true
                    }
                }
            }
            guard next.contains(true) else { return next }
            reached = next
        }
        return reached
    }

    private static func step(_ step: Token, takes scalar: Unicode.Scalar) -> Bool {
        switch step {
        case .any: true
        case .scalar(let own): own == scalar
        case .oneOf(let set): set.contains(scalar)
        case .run, .word, .alternatives: false
        }
    }

    private static func lowercased(_ token: Token) -> Token {
        switch token {
        case .scalar(let scalar): .scalar(lower(scalar))
        case .oneOf(let set): .oneOf(Set(set.map(lower)))
        case .word(let words): .word(words.map { $0.map(lower) })
        case .alternatives(let values): .alternatives(values.map { $0.map(lowercased) })
        case .any, .run: token
        }
    }

    private static func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let lowered = String(scalar).lowercased().unicodeScalars
        return lowered.count == 1 ? lowered[lowered.startIndex] : scalar
    }
}
