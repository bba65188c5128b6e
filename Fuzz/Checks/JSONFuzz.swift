import LinkdConfig
import LinkdFormats

extension FuzzTarget {
    /// The JSON reader on any bytes: a refusal points inside the text (or at its end); an accepted value prints as
    /// JSON the reader accepts again, as the same value; and the positions apps.d problems are reported at (each
    /// value's and key's, by JSON path) are where that value or key starts.
    package static let json = FuzzTarget("json") { bytes in
        let value: JSONValue
        do throws(JSONValue.ParseError) {
            value = try JSONValue.parse(bytes)
        } catch {
            require(error.offset >= 0 && error.offset <= bytes.count, "a refusal points outside the text")
            require(!error.problem.isEmpty, "a refusal without a problem")
            return
        }
        let printed = value.serialized
        guard let reread = try? JSONValue.parse(Array(printed.utf8)) else {
            fatalError("invariant broken: a printed value is not JSON")
        }
        require(reread.serialized == printed, "a printed value reads as another")
        let text = Array(bytes)
        checkLocations(value, at: "$", in: text, JSONLocations(scanning: text))
    }

    /// Checks that the position of `value`, at `path`, and of everything in it, is where it starts in `text`. Keys
    /// other than plain words are passed over: a path cannot tell `{"a.b": 1}` from `{"a": {"b": 1}}`.
    private static func checkLocations(
        _ value: JSONValue,
        at path: String,
        in text: [UInt8],
        _ locations: JSONLocations
    ) {
        guard let offset = offset(of: locations.value(at: path), in: text), offset < text.count else {
            fatalError("invariant broken: the position of \(path) is outside the text")
        }
        let first: Set<UInt8> =
            switch value {
            case .object: [UInt8(ascii: "{")]
            case .array: [UInt8(ascii: "[")]
            case .string: [UInt8(ascii: "\"")]
            case .bool(let flag): [flag ? UInt8(ascii: "t") : UInt8(ascii: "f")]
            case .null: [UInt8(ascii: "n")]
            case .number, .double: Set(Array("-0123456789".utf8))
            }
        require(first.contains(text[offset]), "the position of \(path) is not where its value starts")
        for (index, element) in (value.arrayElements ?? []).enumerated() {
            checkLocations(element, at: "\(path)[\(index)]", in: text, locations)
        }
        let members = value.objectMembers ?? []
        for (index, (key, member)) in members.enumerated()
        where isWord(key) && !members[(index + 1)...].contains(where: { $0.0 == key }) {
            let keyOffset = Self.offset(of: locations.key(at: path + "." + key), in: text)
            require(
                keyOffset.map { text[$0] } == UInt8(ascii: "\""),
                "the position of \(path).\(key)'s key is not its quote"
            )
            checkLocations(member, at: path + "." + key, in: text, locations)
        }
    }

    private static func isWord(_ key: String) -> Bool {
        !key.isEmpty
            && key.utf8.allSatisfy {
                $0 == UInt8(ascii: "_") || ($0 < 0x80 && Character(Unicode.Scalar($0)).isLetter)
                    || ($0 >= 0x30 && $0 <= 0x39)
            }
    }
}
