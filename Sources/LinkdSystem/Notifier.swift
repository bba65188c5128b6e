import CSystemd
import Glibc

/// Tells the service manager about the daemon's state through `sd_notify(3)`; without `NOTIFY_SOCKET` every call is
/// a no-op.
package struct Notifier: Sendable {
    /// Creates a notifier.
    package init() {}

    /// Sends `READY=1` and, when given, `STATUS=`.
    ///
    /// - Throws: ``SystemdError/notifyFailed(errno:)``.
    package func notifyReady(status: String? = nil) throws(SystemdError) {
        try send("READY=1" + (status.map { "\nSTATUS=" + $0 } ?? ""))
    }

    /// Sends `STOPPING=1`, before any exit, so a start request that arrives meanwhile is not dropped.
    package func notifyStopping() throws(SystemdError) {
        try send("STOPPING=1")
    }

    /// Sends `STATUS=`.
    package func notifyStatus(_ status: String) throws(SystemdError) {
        try send("STATUS=" + status)
    }

    /// Sends `WATCHDOG=1`.
    package func notifyWatchdog() throws(SystemdError) {
        try send("WATCHDOG=1")
    }

    private func send(_ state: String) throws(SystemdError) {
        // Control characters other than the separating newlines are not part of the protocol.
        let clean = String(state.unicodeScalars.filter { $0 == "\n" || $0.value >= 0x20 }.map(Character.init))
        // Without NOTIFY_SOCKET sd_notify does nothing; libsystemd is not loaded for it.
        guard getenv("NOTIFY_SOCKET") != nil else { return }
        let result = try Libsystemd.calls().pointee.notify(0, clean)
        if result < 0 { throw .notifyFailed(errno: Errno(rawValue: -result)) }
    }
}
