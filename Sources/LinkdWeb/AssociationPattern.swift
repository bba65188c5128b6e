/// A pattern of an association file (`/help/*`, `/m/????`, `/$(section)/*`), matched against one part of a link the
/// way Apple describes it: `*` matches any run of characters (none too), `?` exactly one, `?*` one or more, and
/// `$(name)` any one of a substitution variable's values. The whole part must match.
///
/// Matching walks the pattern once, keeping every place in the text it may have reached, so that no pattern costs more
/// than its length times the text's, whatever its wildcards.
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
    }

    /// The steps; a custom variable's values are spliced in (see ``expanding(_:variables:)``).
    let tokens: [Token]

    /// The most patterns a text with custom variables expands to; a pattern past it matches nothing.
    static let expansionLimit = 256

    /// The patterns `text` stands for: one, or one per combination of its custom variables' values (each value may
    /// itself hold `*` and `?`); predefined variables stay single steps. An unknown variable is taken as written.
    ///
    /// - Returns: the patterns; empty when their count passes ``expansionLimit``.
    static func expanding(_ text: String, variables: [String: [String]]) -> [AssociationPattern] {
        var partial: [[Token]] = [[]]
        var scalars = Array(text.unicodeScalars)[...]
        while let first = scalars.first {
            if first == "$", scalars.dropFirst().first == "(", let close = scalars.firstIndex(of: ")") {
                var name = ""
                name.unicodeScalars.append(contentsOf: scalars[(scalars.startIndex + 2)..<close])
                if let predefined = Self.predefined(name) {
                    partial = partial.map { $0 + [predefined] }
                    scalars = scalars[(close + 1)...]
                    continue
                }
                if let values = variables[name] {
                    partial = partial.flatMap { prefix in values.map { prefix + plain($0) } }
                    guard partial.count <= expansionLimit else { return [] }
                    scalars = scalars[(close + 1)...]
                    continue
                }
            }
            partial = partial.map { $0 + plain(String(first)) }
            scalars = scalars.dropFirst()
        }
        return partial.map(AssociationPattern.init(tokens:))
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
        for step in steps {
            var next = [Bool](repeating: false, count: subject.count + 1)
            switch step {
            case .run:
                guard let first = reached.firstIndex(of: true) else { return false }
                for index in first...subject.count { next[index] = true }
            case .any, .scalar, .oneOf:
                for index in 0..<subject.count where reached[index] && Self.step(step, takes: subject[index]) {
                    next[index + 1] = true
                }
            case .word(let words):
                for index in 0...subject.count where reached[index] {
                    for word in words where subject[index...].starts(with: word) { next[index + word.count] = true }
                }
            }
            reached = next
        }
        return reached[subject.count]
    }

    private static func step(_ step: Token, takes scalar: Unicode.Scalar) -> Bool {
        switch step {
        case .any: true
        case .scalar(let own): own == scalar
        case .oneOf(let set): set.contains(scalar)
        case .run, .word: false
        }
    }

    private static func lowercased(_ token: Token) -> Token {
        switch token {
        case .scalar(let scalar): .scalar(lower(scalar))
        case .oneOf(let set): .oneOf(Set(set.map(lower)))
        case .word(let words): .word(words.map { $0.map(lower) })
        case .any, .run: token
        }
    }

    private static func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let lowered = String(scalar).lowercased().unicodeScalars
        return lowered.count == 1 ? lowered[lowered.startIndex] : scalar
    }
}
