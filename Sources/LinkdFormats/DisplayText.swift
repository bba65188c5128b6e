/// Text from a link or a backend made safe to show a person: bidi and other format controls (which can reorder
/// what is seen, U+202E …) removed, controls shown as escapes, so a terminal or a dialog shows what is there.
public enum DisplayText {
    /// `text` without format controls (Unicode category Cf) and with C0/C1 controls escaped as `\u{…}`.
    public static func sanitize(_ text: String) -> String {
        // Printable ASCII has neither controls nor format characters: most text is returned as it is.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x20 && scalar.value < 0x7F {
                output.unicodeScalars.append(scalar)
                continue
            }
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
