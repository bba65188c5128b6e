extension Spool {
    /// A value an action keeps in its spool entry across a restart (``Spool/Entry/Kind/memory``): what JSON holds,
    /// with a whole number kept exact.
    package indirect enum Value: Sendable, Equatable, Codable {
        case bool(Bool)
        case integer(Int64)
        case double(Double)
        case string(String)
        case array([Value])
        case object([String: Value])
        case null

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? container.decode(Int64.self) {
                self = .integer(number)
            } else if let number = try? container.decode(Double.self) {
                // A whole number reads back as one however it was written (`1e3`), so that a value written and read
                // again is the same.
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .string(text)
            } else if let values = try? container.decode([Value].self) {
                self = .array(values)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let flag): try container.encode(flag)
            case .integer(let number): try container.encode(number)
            case .double(let number): try container.encode(number)
            case .string(let text): try container.encode(text)
            case .array(let values): try container.encode(values)
            case .object(let members): try container.encode(members)
            case .null: try container.encodeNil()
            }
        }

        /// `number`, kept as a whole number when it is one: the value it reads back as.
        package static func number(_ number: Double) -> Value {
            if let whole = Int64(exactly: number) { .integer(whole) } else { .double(number) }
        }

        /// The string, when it is one.
        package var string: String? { if case .string(let text) = self { text } else { nil } }
        /// The flag, when it is one.
        package var bool: Bool? { if case .bool(let flag) = self { flag } else { nil } }
        /// The whole number, when it is one.
        package var integer: Int64? { if case .integer(let number) = self { number } else { nil } }
        /// The number, whole or not.
        package var number: Double? {
            switch self {
            case .integer(let number): Double(number)
            case .double(let number): number
            default: nil
            }
        }
        /// The members, when it is an object.
        package var object: [String: Value]? { if case .object(let members) = self { members } else { nil } }
    }
}
