import CSystemd

extension BusValue {
    private static func code(_ character: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: character)) }

    /// Appends `values` to `message`, in order. Returns a negative errno when sd-bus refuses one.
    static func append(_ values: [BusValue], to message: OpaquePointer, _ sd: linkd_systemd_api) -> Int32 {
        var result: Int32 = 0
        for value in values where result >= 0 { result = value.append(to: message, sd) }
        return result
    }

    private func append(to message: OpaquePointer, _ sd: linkd_systemd_api) -> Int32 {
        switch self {
        case .string(let text): return Self.appendString(text, message, sd)
        case .boolean(let value):
            var number: Int32 = value ? 1 : 0
            return sd.bus_message_append_basic(message, Self.code("b"), &number)
        case .uint32(let value):
            var number = value
            return sd.bus_message_append_basic(message, Self.code("u"), &number)
        case .strings(let list):
            var result = sd.bus_message_open_container(message, Self.code("a"), "s")
            for text in list where result >= 0 { result = Self.appendString(text, message, sd) }
            return result < 0 ? result : sd.bus_message_close_container(message)
        case .dictionary(let entries):
            var result = sd.bus_message_open_container(message, Self.code("a"), "{ss}")
            for (key, text) in entries.sorted(by: { $0.key < $1.key }) where result >= 0 {
                result = sd.bus_message_open_container(message, Self.code("e"), "ss")
                if result >= 0 { result = Self.appendString(key, message, sd) }
                if result >= 0 { result = Self.appendString(text, message, sd) }
                if result >= 0 { result = sd.bus_message_close_container(message) }
            }
            return result < 0 ? result : sd.bus_message_close_container(message)
        }
    }

    private static func appendString(_ text: String, _ message: OpaquePointer, _ sd: linkd_systemd_api) -> Int32 {
        text.withCString { sd.bus_message_append_basic(message, code("s"), $0) }
    }

    /// Reads every argument of `message`; `nil` when one is of a type ``BusValue`` does not hold, or cannot be read.
    static func read(_ message: OpaquePointer, _ sd: linkd_systemd_api) -> [BusValue]? {
        var values: [BusValue] = []
        while true {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            let peeked = sd.bus_message_peek_type(message, &type, &contents)
            if peeked == 0 { return values }
            guard peeked > 0, let value = readOne(message, type, contents.map { String(cString: $0) }, sd) else {
                return nil
            }
            values.append(value)
        }
    }

    private static func readOne(
        _ message: OpaquePointer,
        _ type: CChar,
        _ contents: String?,
        _ sd: linkd_systemd_api
    ) -> BusValue? {
        switch (type, contents) {
        case (code("s"), _): return readString(message, sd).map(BusValue.string)
        case (code("b"), _):
            var number: Int32 = 0
            return sd.bus_message_read_basic(message, code("b"), &number) > 0 ? .boolean(number != 0) : nil
        case (code("u"), _):
            var number: UInt32 = 0
            return sd.bus_message_read_basic(message, code("u"), &number) > 0 ? .uint32(number) : nil
        case (code("a"), "s"):
            guard sd.bus_message_enter_container(message, code("a"), "s") > 0 else { return nil }
            var list: [String] = []
            while let text = readString(message, sd) { list.append(text) }
            return sd.bus_message_exit_container(message) >= 0 ? .strings(list) : nil
        case (code("a"), "{ss}"):
            guard sd.bus_message_enter_container(message, code("a"), "{ss}") > 0 else { return nil }
            var entries: [String: String] = [:]
            while sd.bus_message_enter_container(message, code("e"), "ss") > 0 {
                guard let key = readString(message, sd), let text = readString(message, sd),
                    sd.bus_message_exit_container(message) >= 0
                else { return nil }
                entries[key] = text
            }
            return sd.bus_message_exit_container(message) >= 0 ? .dictionary(entries) : nil
        default: return nil
        }
    }

    /// The next string argument; `nil` at the end of a container, or when it is not a string.
    private static func readString(_ message: OpaquePointer, _ sd: linkd_systemd_api) -> String? {
        var text: UnsafePointer<CChar>?
        guard sd.bus_message_read_basic(message, code("s"), &text) > 0, let text else { return nil }
        return String(cString: text)
    }
}
