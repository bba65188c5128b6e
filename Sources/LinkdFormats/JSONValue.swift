/// A JSON value whose objects keep their keys in order, serialised on one line as linkd prints it
/// (`{"input": "…", "route": null}`).
public indirect enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(Int64)
    /// A number that is not a whole `Int64` (only parsing produces it).
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized == rhs.serialized }

    /// The value on one line, with `": "` and `", "` separators and non-ASCII text kept as UTF-8.
    public var serialized: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .string(let text): Self.writeString(text, to: &output)
        case .number(let number): output += String(number)
        case .double(let number): output += number.isFinite ? String(number) : "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .null: output += "null"
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += ", " }
                value.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += ", " }
                Self.writeString(key, to: &output)
                output += ": "
                value.write(to: &output)
            }
            output += "}"
        }
    }

    /// `text` as a JSON string. Beyond what JSON requires (quote, backslash, C0 controls), DEL, the C1 controls,
    /// U+2028, U+2029 and every format control (bidi overrides, U+00AD …) are written as escapes too: JSON output
    /// shown on a terminal, or read by a program that shows it, carries no byte a terminal acts on.
    private static func writeString(_ text: String, to output: inout String) {
        // Most strings are printable ASCII with nothing to escape: copied whole.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            output += "\""
            output += text
            output += "\""
            return
        }
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _
            where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
                || scalar == "\u{2029}" || scalar.properties.generalCategory == .format:
                writeEscape(scalar, to: &output)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    /// `scalar` as `\uXXXX`, or as two of them (a UTF-16 surrogate pair) beyond U+FFFF.
    private static func writeEscape(_ scalar: Unicode.Scalar, to output: inout String) {
        for unit in String(scalar).utf16 {
            let hex = String(unit, radix: 16)
            output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
