/// Text from a link or a backend made safe to show a person: bidi and other format controls (which can reorder
/// what is seen, U+202E …) removed, controls shown as escapes, so a terminal or a dialog shows what is there.
public enum DisplayText {
    /// `text` without format controls (Unicode category Cf) and with C0/C1 controls escaped as `\u{…}`.
    public static func sanitize(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .format:
                continue
            case .control, .lineSeparator, .paragraphSeparator:
                output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// `text` sanitised and with `&`, `<`, `>`, `"` and `'` escaped, for markup (desktop notifications, dialogs).
    public static func escapeMarkup(_ text: String) -> String {
        var output = ""
        for character in sanitize(text) {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }
}
