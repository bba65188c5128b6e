import LinkdFormats

/// Words shown the way a shell would need them typed, for the summary of an action in `linkd route`.
enum ShellWords {
    /// `argv` joined by spaces, each word quoted as a shell needs it and stripped of control characters.
    static func display(_ argv: [String]) -> String {
        argv.map { DisplayText.sanitize(quoted($0)) }.joined(separator: " ")
    }

    /// `word` as is when a shell reads it back unchanged, else in single quotes.
    static func quoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./=:,+@%".unicodeScalars.contains($0)
        }
        guard !plain || word.isEmpty else { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
