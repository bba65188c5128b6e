import CSystemd
import Glibc

/// Calls on the D-Bus session bus through sd-bus (no variadic C: containers and basic values are appended one by one).
public enum SessionBus {
    /// The object path an application id is served at: `org.example.App` → `/org/example/App` (`-` becomes `_`).
    public static func objectPath(for appID: String) -> String {
        "/" + appID.replacing(".", with: "/").replacing("-", with: "_")
    }

    /// Calls `org.freedesktop.Application.Open(as uris, a{sv} platform_data)` on `appID`, which D-Bus activates when
    /// it is not running (a `.service` file names it). Blocks until the app answers or `timeout` passes.
    ///
    /// - Throws: ``SystemdError/busFailed(operation:errno:detail:)`` naming the bus error (e.g.
    ///   `org.freedesktop.DBus.Error.ServiceUnknown`) or the errno.
    public static func openURIs(_ uris: [String], appID: String, timeout: Duration) throws(SystemdError) {
        var bus: OpaquePointer?
        var result = sd_bus_open_user(&bus)
        guard result >= 0, let bus else {
            throw .busFailed(operation: "connect to the session bus", errno: -result, detail: nil)
        }
        defer { sd_bus_flush_close_unref(bus) }
        var message: OpaquePointer?
        result = sd_bus_message_new_method_call(
            bus,
            &message,
            appID,
            objectPath(for: appID),
            "org.freedesktop.Application",
            "Open"
        )
        guard result >= 0, let message else {
            throw .busFailed(operation: "build the Open call", errno: -result, detail: nil)
        }
        defer { sd_bus_message_unref(message) }
        let array = CChar(UInt8(ascii: "a"))
        let string = CChar(UInt8(ascii: "s"))
        result = sd_bus_message_open_container(message, array, "s")
        for uri in uris where result >= 0 {
            result = uri.withCString { sd_bus_message_append_basic(message, string, $0) }
        }
        if result >= 0 { result = sd_bus_message_close_container(message) }
        if result >= 0 { result = sd_bus_message_open_container(message, array, "{sv}") }
        if result >= 0 { result = sd_bus_message_close_container(message) }
        guard result >= 0 else { throw .busFailed(operation: "build the Open call", errno: -result, detail: nil) }
        var error = sd_bus_error()
        var reply: OpaquePointer?
        let microseconds =
            UInt64(timeout.components.seconds) * 1_000_000 + UInt64(timeout.components.attoseconds / 1_000_000_000_000)
        result = sd_bus_call(bus, message, microseconds, &error, &reply)
        defer {
            sd_bus_error_free(&error)
            if let reply { sd_bus_message_unref(reply) }
        }
        guard result >= 0 else {
            let name = error.name.map { String(cString: $0) }
            let text = error.message.map { String(cString: $0) }
            let detail = [name, text].compactMap { $0 }.joined(separator: ": ")
            throw .busFailed(
                operation: "call Open on '\(appID)'",
                errno: -result,
                detail: detail.isEmpty ? nil : detail
            )
        }
    }
}
