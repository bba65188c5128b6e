import CSystemd
import Glibc

/// Calls on the D-Bus session bus through sd-bus (no variadic C: containers and basic values are appended one by one).
package enum SessionBus {
    /// The object path an application id is served at: `org.example.App` → `/org/example/App` (`-` becomes `_`).
    package static func objectPath(for appID: String) -> String {
        "/" + appID.replacing(".", with: "/").replacing("-", with: "_")
    }

    /// Calls `org.freedesktop.Application.Open(as uris, a{sv} platform_data)` on `appID`, which D-Bus activates when
    /// it is not running (a `.service` file names it), `platformData` string values (`activation-token`,
    /// `desktop-startup-id`). Blocks until the app answers or `timeout` passes.
    ///
    /// - Throws: ``SystemError/busFailed(operation:errno:detail:)`` naming the bus error (e.g.
    ///   `org.freedesktop.DBus.Error.ServiceUnknown`) or the errno; ``SystemError/libsystemdMissing(reason:)``.
    package static func openURIs(
        _ uris: [String],
        appID: String,
        platformData: [String: String] = [:],
        timeout: Duration
    ) throws(SystemError) {
        try call(
            destination: appID,
            path: objectPath(for: appID),
            interface: "org.freedesktop.Application",
            member: "Open",
            timeout: timeout
        ) { sd, message in
            var result = sd.bus_message_open_container(message, array, "s")
            for uri in uris where result >= 0 { result = append(sd, message, uri) }
            if result >= 0 { result = sd.bus_message_close_container(message) }
            return result < 0 ? result : appendPlatformData(platformData, sd, message)
        }
    }

    /// Appends `a{sv}` with `data`'s values as strings.
    static func appendPlatformData(_ data: [String: String], _ sd: linkd_systemd_api, _ message: OpaquePointer) -> Int32
    {
        var result = sd.bus_message_open_container(message, array, "{sv}")
        for (key, value) in data.sorted(by: { $0.key < $1.key }) where result >= 0 {
            result = sd.bus_message_open_container(message, CChar(UInt8(ascii: "e")), "sv")
            if result >= 0 { result = append(sd, message, key) }
            if result >= 0 { result = sd.bus_message_open_container(message, CChar(UInt8(ascii: "v")), "s") }
            if result >= 0 { result = append(sd, message, value) }
            if result >= 0 { result = sd.bus_message_close_container(message) }
            if result >= 0 { result = sd.bus_message_close_container(message) }
        }
        return result < 0 ? result : sd.bus_message_close_container(message)
    }

    /// Calls `org.freedesktop.Application.Activate(a{sv} platform_data)` on `appID`, which D-Bus starts when it is not
    /// running (a `.service` file names it). Blocks until the app answers or `timeout` passes.
    ///
    /// - Throws: ``SystemError/busFailed(operation:errno:detail:)`` naming the bus error or the errno;
    ///   ``SystemError/libsystemdMissing(reason:)``.
    package static func activate(
        appID: String,
        platformData: [String: String] = [:],
        timeout: Duration
    ) throws(SystemError) {
        try call(
            destination: appID,
            path: objectPath(for: appID),
            interface: "org.freedesktop.Application",
            member: "Activate",
            timeout: timeout
        ) { sd, message in appendPlatformData(platformData, sd, message) }
    }

    /// Shows a desktop notification: `org.freedesktop.Notifications.Notify(s app_name, u replaces_id, s app_icon,
    /// s summary, s body, as actions, a{sv} hints, i expire_timeout)`. The body is sent as given: escape markup first.
    ///
    /// - Throws: ``SystemError/busFailed(operation:errno:detail:)``, or ``SystemError/libsystemdMissing(reason:)``.
    package static func notify(summary: String, body: String, timeout: Duration) throws(SystemError) {
        try call(
            destination: "org.freedesktop.Notifications",
            path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications",
            member: "Notify",
            timeout: timeout
        ) { sd, message in
            var result = append(sd, message, "linkd")
            var replaces: UInt32 = 0
            if result >= 0 { result = sd.bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &replaces) }
            for text in ["dialog-password", summary, body] where result >= 0 { result = append(sd, message, text) }
            if result >= 0 { result = sd.bus_message_open_container(message, array, "s") }
            if result >= 0 { result = sd.bus_message_close_container(message) }
            if result >= 0 { result = sd.bus_message_open_container(message, array, "{sv}") }
            if result >= 0 { result = sd.bus_message_close_container(message) }
            var expires: Int32 = -1
            if result >= 0 { result = sd.bus_message_append_basic(message, CChar(UInt8(ascii: "i")), &expires) }
            return result
        }
    }

    private static let array = CChar(UInt8(ascii: "a"))

    private static func append(_ sd: linkd_systemd_api, _ message: OpaquePointer, _ text: String) -> Int32 {
        text.withCString { sd.bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
    }

    /// Builds a method call with `appendArguments` and sends it on a connection of its own, blocking until the reply
    /// or `timeout`; `readReply` reads the reply (a negative errno when it cannot).
    static func call(
        destination: String,
        path: String,
        interface: String,
        member: String,
        timeout: Duration,
        appendArguments: (linkd_systemd_api, OpaquePointer) -> Int32,
        readReply: (linkd_systemd_api, OpaquePointer) -> Int32 = { _, _ in 0 }
    ) throws(SystemError) {
        let connection = try BusConnection()
        defer { connection.close() }
        try connection.call(
            destination: destination,
            path: path,
            interface: interface,
            member: member,
            timeout: timeout,
            appendArguments: appendArguments,
            readReply: readReply
        )
    }
}
