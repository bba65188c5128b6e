import CSystemd
import Glibc

/// One connection to the user's session bus, kept open between its calls: what the manager of a transient unit
/// holds a reference for (``TransientUnit``) lives as long as the connection. Its calls block the calling thread
/// (run them through ``BlockingCall``), one at a time.
package final class BusConnection: Sendable {
    // The sd-bus connection; sd-bus objects are not thread-safe, so every use holds the lock.
    private let bus: Lock<BusHandle?>

    /// Connects to the session bus (`$DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
    ///
    /// - Throws: ``SystemError/busFailed(operation:errno:detail:)``, or ``SystemError/libsystemdMissing(reason:)``.
    package init() throws(SystemError) {
        let sd = try Libsystemd.calls().pointee
        var opened: OpaquePointer?
        let result = sd.bus_open_user(&opened)
        guard result >= 0, let opened else {
            throw .busFailed(operation: "connect to the session bus", errno: Errno(rawValue: -result), detail: nil)
        }
        bus = Lock(BusHandle(pointer: opened))
    }

    deinit { close() }

    /// Closes the connection (the bus drops what it held for it); later calls fail.
    package func close() {
        guard let sd = try? Libsystemd.calls().pointee else { return }
        bus.withLock { handle in
            if let pointer = handle?.pointer { _ = sd.bus_flush_close_unref(pointer) }
            handle = nil
        }
    }

    /// Builds a method call with `appendArguments` and sends it, blocking until the reply or `timeout`; `readReply`
    /// reads the reply (a negative errno when it cannot).
    ///
    /// - Throws: ``SystemError/busFailed(operation:errno:detail:)`` naming the bus error or the errno.
    func call(
        destination: String,
        path: String,
        interface: String,
        member: String,
        timeout: Duration,
        appendArguments: (linkd_systemd_api, OpaquePointer) -> Int32 = { _, _ in 0 },
        readReply: (linkd_systemd_api, OpaquePointer) -> Int32 = { _, _ in 0 }
    ) throws(SystemError) {
        let sd = try Libsystemd.calls().pointee
        let outcome: Result<Void, SystemError> = bus.withLock { handle in
            guard let bus = handle?.pointer else {
                return .failure(.busFailed(operation: "call \(member)", errno: Errno(rawValue: ENOTCONN), detail: nil))
            }
            return Self.call(sd, bus, destination, path, interface, member, timeout, appendArguments, readReply)
        }
        try outcome.get()
    }

    private static func call(
        _ sd: linkd_systemd_api,
        _ bus: OpaquePointer,
        _ destination: String,
        _ path: String,
        _ interface: String,
        _ member: String,
        _ timeout: Duration,
        _ appendArguments: (linkd_systemd_api, OpaquePointer) -> Int32,
        _ readReply: (linkd_systemd_api, OpaquePointer) -> Int32
    ) -> Result<Void, SystemError> {
        var message: OpaquePointer?
        var result = sd.bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard result >= 0, let message else {
            return .failure(
                .busFailed(operation: "build the \(member) call", errno: Errno(rawValue: -result), detail: nil)
            )
        }
        defer { _ = sd.bus_message_unref(message) }
        result = appendArguments(sd, message)
        guard result >= 0 else {
            return .failure(
                .busFailed(operation: "build the \(member) call", errno: Errno(rawValue: -result), detail: nil)
            )
        }
        var error = sd_bus_error()
        var reply: OpaquePointer?
        // A time already up is the least there is: never a negative number that UInt64 would trap on, and never 0,
        // which sd_bus_call(3) takes for its own default of 25 s.
        let left = max(timeout, .microseconds(1))
        let microseconds =
            UInt64(left.components.seconds) * 1_000_000 + UInt64(left.components.attoseconds / 1_000_000_000_000)
        result = sd.bus_call(bus, message, microseconds, &error, &reply)
        defer {
            sd.bus_error_free(&error)
            if let reply { _ = sd.bus_message_unref(reply) }
        }
        guard result >= 0 else {
            let name = error.name.map { String(cString: $0) }
            let text = error.message.map { String(cString: $0) }
            let detail = [name, text].compactMap { $0 }.joined(separator: ": ")
            return .failure(
                .busFailed(
                    operation: "call \(member) on '\(destination)'",
                    errno: Errno(rawValue: -result),
                    detail: detail.isEmpty ? nil : detail
                )
            )
        }
        guard let reply else { return .success(()) }
        result = readReply(sd, reply)
        guard result >= 0 else {
            return .failure(
                .busFailed(operation: "read the \(member) reply", errno: Errno(rawValue: -result), detail: nil)
            )
        }
        return .success(())
    }
}

/// An sd-bus connection pointer.
// The pointer is only used while BusConnection's lock is held, one thread at a time.
struct BusHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
