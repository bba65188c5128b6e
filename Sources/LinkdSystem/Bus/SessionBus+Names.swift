import CSystemd

extension SessionBus {
    /// Whether `name` is known on the session bus: a connection owns it (`NameHasOwner`), or D-Bus can start one for
    /// it (`ListActivatableNames`: a `.service` file names it). `false` also when there is no session bus.
    package static func nameIsKnown(_ name: String, timeout: Duration) -> Bool {
        var hasOwner: Int32 = 0
        let owned: Void? = try? call(
            destination: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            member: "NameHasOwner",
            timeout: timeout,
            appendArguments: { sd, message in
                name.withCString { sd.bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            },
            readReply: { sd, reply in sd.bus_message_read_basic(reply, CChar(UInt8(ascii: "b")), &hasOwner) }
        )
        if owned != nil, hasOwner != 0 { return true }
        var isActivatable = false
        let listed: Void? = try? call(
            destination: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            member: "ListActivatableNames",
            timeout: timeout,
            appendArguments: { _, _ in 0 },
            readReply: { sd, reply in
                var result = sd.bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "s")
                while result > 0 {
                    var text: UnsafePointer<CChar>?
                    result = sd.bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &text)
                    if result > 0, let text, String(cString: text) == name { isActivatable = true }
                }
                return result
            }
        )
        return listed != nil && isActivatable
    }
}
