import CSystemd
import Glibc

/// The arguments of `StartTransientUnit` for a program's unit: `(s name, s mode, a(sv) properties, a(sa(sv)) aux)`.
struct UnitProperties {
    let name: String
    let description: String
    let arguments: [String]
    let environment: [String]
    let input: Int32
    let output: Int32

    /// Appends the arguments to `message`; a negative errno when sd-bus refuses one.
    func append(to message: OpaquePointer, _ sd: linkd_systemd_api) -> Int32 {
        let writer = MessageWriter(sd: sd, message: message)
        var result = writer.string(name)
        if result >= 0 { result = writer.string("fail") }
        if result >= 0 { result = sd.bus_message_open_container(message, CChar(UInt8(ascii: "a")), "(sv)") }
        let properties: [(String, String, () -> Int32)] = [
            ("Description", "s", { writer.string(description) }),
            ("Slice", "s", { writer.string("app.slice") }),
            ("Type", "s", { writer.string("simple") }),
            ("ExecStart", "a(sasb)", { writer.execStart(arguments) }),
            ("WorkingDirectory", "s", { writer.string("/") }),
            ("Environment", "as", { writer.strings(environment) }),
            ("StandardInputFileDescriptor", "h", { writer.descriptor(input) }),
            ("StandardOutputFileDescriptor", "h", { writer.descriptor(output) }),
            ("StandardErrorFileDescriptor", "h", { writer.descriptor(output) }),
            ("TimeoutStopUSec", "t", { writer.microseconds(5_000_000) }),
            ("CollectMode", "s", { writer.string("inactive-or-failed") }),
            ("AddRef", "b", { writer.bool(true) }),
        ]
        for (key, signature, value) in properties where result >= 0 {
            result = writer.property(key, signature, value)
        }
        if result >= 0 { result = sd.bus_message_close_container(message) }
        if result >= 0 { result = sd.bus_message_open_container(message, CChar(UInt8(ascii: "a")), "(sa(sv))") }
        if result >= 0 { result = sd.bus_message_close_container(message) }
        return result
    }
}

/// Appends values to an sd-bus message, each call a negative errno on failure.
struct MessageWriter {
    let sd: linkd_systemd_api
    let message: OpaquePointer

    func string(_ text: String) -> Int32 {
        text.withCString { sd.bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
    }

    func strings(_ texts: [String]) -> Int32 {
        var result = sd.bus_message_open_container(message, CChar(UInt8(ascii: "a")), "s")
        for text in texts where result >= 0 { result = string(text) }
        return result >= 0 ? sd.bus_message_close_container(message) : result
    }

    func bool(_ value: Bool) -> Int32 {
        var flag: Int32 = value ? 1 : 0
        return sd.bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &flag)
    }

    func microseconds(_ value: UInt64) -> Int32 {
        var number = value
        return sd.bus_message_append_basic(message, CChar(UInt8(ascii: "t")), &number)
    }

    func descriptor(_ fd: Int32) -> Int32 {
        var number = fd
        return sd.bus_message_append_basic(message, CChar(UInt8(ascii: "h")), &number)
    }

    /// `a(sasb)`: one command, its path, its argv, and whether a failure is ignored (no).
    func execStart(_ arguments: [String]) -> Int32 {
        var result = sd.bus_message_open_container(message, CChar(UInt8(ascii: "a")), "(sasb)")
        if result >= 0 { result = sd.bus_message_open_container(message, CChar(UInt8(ascii: "r")), "sasb") }
        if result >= 0 { result = string(arguments[0]) }
        if result >= 0 { result = strings(arguments) }
        if result >= 0 { result = bool(false) }
        if result >= 0 { result = sd.bus_message_close_container(message) }
        return result >= 0 ? sd.bus_message_close_container(message) : result
    }

    /// `(sv)`: the property `key`, its value of `signature` written by `value`.
    func property(_ key: String, _ signature: String, _ value: () -> Int32) -> Int32 {
        var result = sd.bus_message_open_container(message, CChar(UInt8(ascii: "r")), "sv")
        if result >= 0 { result = string(key) }
        if result >= 0 { result = sd.bus_message_open_container(message, CChar(UInt8(ascii: "v")), signature) }
        if result >= 0 { result = value() }
        if result >= 0 { result = sd.bus_message_close_container(message) }
        return result >= 0 ? sd.bus_message_close_container(message) : result
    }
}

/// A value a unit's property holds, read from a `Properties.Get` reply.
protocol BusProperty {
    /// Reads the variant's value.
    static func read(_ reply: OpaquePointer, _ sd: linkd_systemd_api) -> Self?
}

extension UInt32: BusProperty {
    static func read(_ reply: OpaquePointer, _ sd: linkd_systemd_api) -> UInt32? {
        readNumber(reply, sd, "u", as: self)
    }
}

extension Int32: BusProperty {
    static func read(_ reply: OpaquePointer, _ sd: linkd_systemd_api) -> Int32? { readNumber(reply, sd, "i", as: self) }
}

/// The variant's number of D-Bus type `signature` (`u`, `i`).
private func readNumber<Number: FixedWidthInteger>(
    _ reply: OpaquePointer,
    _ sd: linkd_systemd_api,
    _ signature: String,
    as type: Number.Type
) -> Number? {
    var value: Number = 0
    guard sd.bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), signature) >= 0,
        sd.bus_message_read_basic(reply, CChar(signature.utf8.first ?? 0), &value) >= 0
    else { return nil }
    return value
}

extension String: BusProperty {
    static func read(_ reply: OpaquePointer, _ sd: linkd_systemd_api) -> String? {
        var value: UnsafePointer<CChar>?
        guard sd.bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), "s") >= 0,
            sd.bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &value) >= 0, let value
        else { return nil }
        return String(cString: value)
    }
}

extension BusConnection {
    /// The property `name` of `interface` of the manager's object `path` (`Properties.Get`).
    ///
    /// - Throws: ``SystemError/busFailed(operation:errno:detail:)``.
    func property<Value: BusProperty>(
        _ path: String,
        _ interface: String,
        _ name: String,
        _ type: Value.Type
    ) throws(SystemError) -> Value {
        var found: Value?
        try call(
            destination: "org.freedesktop.systemd1",
            path: path,
            interface: "org.freedesktop.DBus.Properties",
            member: "Get",
            timeout: .seconds(5),
            appendArguments: { sd, message in
                let writer = MessageWriter(sd: sd, message: message)
                let result = writer.string(interface)
                return result >= 0 ? writer.string(name) : result
            },
            readReply: { sd, reply in
                found = Value.read(reply, sd)
                return found == nil ? -EBADMSG : 0
            }
        )
        guard let found else {
            throw .busFailed(operation: "read \(name)", errno: Errno(rawValue: EBADMSG), detail: nil)
        }
        return found
    }
}
