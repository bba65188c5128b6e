/// One argument of a D-Bus message, of the types linkd's own interface uses: `s`, `b`, `u`, `as` and `a{ss}`.
package enum BusValue: Sendable, Equatable {
    case string(String)
    case boolean(Bool)
    case uint32(UInt32)
    case strings([String])
    case dictionary([String: String])

    /// Its D-Bus type signature.
    package var signature: String {
        switch self {
        case .string: "s"
        case .boolean: "b"
        case .uint32: "u"
        case .strings: "as"
        case .dictionary: "a{ss}"
        }
    }

    /// The text of a `string`; `nil` for another type.
    package var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The list of a `strings`; `nil` for another type.
    package var strings: [String]? {
        if case .strings(let list) = self { list } else { nil }
    }

    /// The entries of a `dictionary`; `nil` for another type.
    package var dictionary: [String: String]? {
        if case .dictionary(let entries) = self { entries } else { nil }
    }

    /// The value of a `boolean`; `nil` for another type.
    package var boolean: Bool? {
        if case .boolean(let value) = self { value } else { nil }
    }
}

/// A D-Bus error: its name (`io.linkd.Linkd1.Error.WrongKey`, `org.freedesktop.DBus.Error.InvalidArgs`) and message.
package struct BusError: Error, Sendable, Equatable {
    package let name: String
    package let message: String

    package init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The arguments of a call were not what its member takes.
    package static func invalidArguments(_ message: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }
}
