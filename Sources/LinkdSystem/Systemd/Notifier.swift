import CSystemd
import Glibc

/// Tells the service manager about the daemon's state through `sd_notify(3)` (or, without libsystemd, the one
/// datagram it would send); without `NOTIFY_SOCKET` every call is a no-op.
package struct Notifier: Sendable {
    /// Creates a notifier.
    package init() {}

    /// Sends `READY=1` and, when given, `STATUS=`.
    ///
    /// - Throws: ``SystemError/notifyFailed(errno:)``.
    package func notifyReady(status: String? = nil) throws(SystemError) {
        try send("READY=1" + (status.map { "\nSTATUS=" + $0 } ?? ""))
    }

    /// Sends `STOPPING=1`, before any exit, so a start request that arrives meanwhile is not dropped.
    package func notifyStopping() throws(SystemError) {
        try send("STOPPING=1")
    }

    /// Sends `STATUS=`.
    package func notifyStatus(_ status: String) throws(SystemError) {
        try send("STATUS=" + status)
    }

    /// Sends `WATCHDOG=1`.
    package func notifyWatchdog() throws(SystemError) {
        try send("WATCHDOG=1")
    }

    private func send(_ state: String) throws(SystemError) {
        // Without NOTIFY_SOCKET sd_notify does nothing; libsystemd is not loaded for it.
        guard let socketPath = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }) else { return }
        // Control characters other than the separating newlines are not part of the protocol.
        let clean = String(state.unicodeScalars.filter { $0 == "\n" || $0.value >= 0x20 }.map(Character.init))
        let result: Int32
        if let calls = try? Libsystemd.calls() {
            result = calls.pointee.notify(0, clean)
        } else {
            result = Self.sendDatagram(clean, to: socketPath)
        }
        if result < 0 { throw .notifyFailed(errno: Errno(rawValue: -result)) }
    }

    /// What `sd_notify(3)` does for a path or abstract (`@…`) socket, for a machine without libsystemd: `state` in one
    /// datagram. Returns 1 or -errno (EAFNOSUPPORT for an address that is neither, ENAMETOOLONG for one too long for
    /// a socket address; sd_notify says EINVAL for both).
    package static func sendDatagram(_ state: String, to path: String) -> Int32 {
        guard path.hasPrefix("/") || path.hasPrefix("@") else { return -EAFNOSUPPORT }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -errno }
        defer { _ = close(fd) }
        do throws(SystemError) {
            return try UnixSocket.withAddress(path) { address, length throws(SystemError) in
                let sent = Array(state.utf8).withUnsafeBytes { message in
                    retryingOnInterrupt {
                        sendto(fd, message.baseAddress, message.count, Int32(MSG_NOSIGNAL), address, length)
                    }
                }
                if case .failure(let error) = sent { return -error.rawValue }
                return 1
            }
        } catch {
            return -error.errno.rawValue
        }
    }
}
