/// One field of a route: text, a whole number, or a secret.
public enum FieldValue: Sendable, Hashable, CustomStringConvertible {
    case text(String)
    case number(Int64)
    case secret(Secret)

    /// The value as a person may see it: secrets redacted.
    public var description: String {
        switch self {
        case .text(let text): text
        case .number(let number): String(number)
        case .secret(let secret): secret.description
        }
    }

    /// The value with secrets revealed.
    public func revealed() -> String {
        switch self {
        case .text(let text): text
        case .number(let number): String(number)
        case .secret(let secret): secret.revealed()
        }
    }

    /// The text, when the field is text.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The secret, when the field is a secret.
    public var secret: Secret? {
        if case .secret(let secret) = self { return secret }
        return nil
    }

    /// The number, when the field is a number.
    public var number: Int64? {
        if case .number(let number) = self { return number }
        return nil
    }
}

/// A route's fields in the order their format lists them, by wire name.
public struct RouteFields: Sendable, Hashable, Sequence {
    /// One named field.
    public struct Field: Sendable, Hashable {
        /// The wire name (`access_token`).
        public var name: String
        /// The value.
        public var value: FieldValue

        /// Creates a field.
        public init(name: String, value: FieldValue) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    public private(set) var fields: [Field] = []

    /// Creates an empty set of fields.
    public init() {}

    /// Creates fields from name-value pairs, in order; a later pair with the same name is ignored.
    public init(_ pairs: [(String, FieldValue)]) {
        for (name, value) in pairs { set(name, value) }
    }

    /// Adds `value` under `name`, unless `name` is already there.
    public mutating func set(_ name: String, _ value: FieldValue?) {
        guard let value, !fields.contains(where: { $0.name == name }) else { return }
        fields.append(Field(name: name, value: value))
    }

    /// The field named `name`, or `nil`.
    public subscript(_ name: String) -> FieldValue? {
        fields.first { $0.name == name }?.value
    }

    /// The names, in order.
    public var names: [String] { fields.map(\.name) }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}
