extension JSONValue {
    /// Why a text is not JSON, and where.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The byte offset of the problem.
        public var offset: Int
        /// What is wrong.
        public var problem: String
        public var description: String { "\(problem) at byte \(offset)" }
    }

    /// Parses one JSON text (RFC 8259): objects keep their keys in order; whole numbers that fit are ``number(_:)``.
    ///
    /// - Throws: ``ParseError`` for anything else, including trailing bytes, invalid UTF-8 and nesting deeper than 64.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected bytes after the value") }
        return value
    }

    /// The member `key` of an object (the last one when a key repeats), or `nil`.
    public subscript(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// The members of an object, or `nil`.
    public var objectMembers: [(String, JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements of an array, or `nil`.
    public var arrayElements: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The text of a string, or `nil`.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value of a boolean, or `nil`.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// A number that is a whole `Int64` (`1e3` is; `1e300` and `1.5` are not), or `nil`.
    public var int64Value: Int64? {
        switch self {
        case .number(let number): number
        case .double(let number): Int64(exactly: number)
        default: nil
        }
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    func error(_ problem: String) -> JSONValue.ParseError {
        JSONValue.ParseError(offset: index, problem: problem)
    }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        guard depth < 64 else { throw error("nesting deeper than 64") }
        guard index < bytes.count else { throw error("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character")
        }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(JSONValue.ParseError) -> JSONValue {
        let word = Array(word.utf8)
        guard bytes[index...].starts(with: word) else { throw error("unexpected character") }
        index += word.count
        return value
    }

    mutating func object(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    mutating func string() throws(JSONValue.ParseError) -> String {
        index += 1
        var output: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: output, as: UTF8.self) else { throw error("string is not UTF-8") }
                return text
            case 0x00..<0x20:
                throw error("control character in a string")
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                            throw error("unpaired surrogate")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid escape") }
                    output.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    throw error("invalid escape")
                }
            default:
                output.append(byte)
            }
        }
    }

    mutating func hex4() throws(JSONValue.ParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid escape") }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            guard let digit = UInt8(String(Unicode.Scalar(byte)), radix: 16) else { throw error("invalid escape") }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    mutating func number() throws(JSONValue.ParseError) -> JSONValue {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integer = digits()
        guard integer > 0 else { throw error("invalid number") }
        guard integer == 1 || bytes[index - integer] != UInt8(ascii: "0") else { throw error("leading zero") }
        var isWhole = true
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("invalid number") }
            isWhole = false
        }
        if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard digits() > 0 else { throw error("invalid number") }
            isWhole = false
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isWhole, let whole = Int64(text) { return .number(whole) }
        guard let double = Double(text) else { throw error("invalid number") }
        return .double(double)
    }
}
