import CSystemd

extension SessionBus {
    /// Whether the session's notification server shows buttons (`org.freedesktop.Notifications.GetCapabilities`
    /// names `actions`); `false` also when there is no session bus or no server answered within `timeout`.
    package static func notificationsHaveActions(timeout: Duration) -> Bool {
        guard let sd = try? Libsystemd.calls() else { return false }
        return linkd_notifications_have_actions(sd, microseconds(timeout)) == 1
    }

    /// Shows a notification with two buttons and waits, blocking, up to `timeout` for the person's answer
    /// (`Notify` with actions, then the `ActionInvoked` or `NotificationClosed` signal of its id); one that time ran
    /// out on is closed (`CloseNotification`). The body is sent as given: escape markup first.
    ///
    /// Only the notification server answers: the notification goes to the unique name that owns
    /// `org.freedesktop.Notifications`, and only that name's signals count, with an accept key drawn at random for this
    /// notification; another connection on the bus that emits `ActionInvoked` presses nothing.
    ///
    /// - Returns: whether the person pressed `accept`; `false` for `decline`, a dismissal, or no answer in time.
    /// - Throws: ``SystemError/busFailed(operation:errno:detail:)`` when it could not be shown;
    ///   ``SystemError/libsystemdMissing(reason:)``.
    package static func ask(
        summary: String,
        body: String,
        accept: String,
        decline: String,
        timeout: Duration
    ) throws(SystemError) -> Bool {
        // A fresh key for the accept button: no one else on the bus can name it ahead.
        let key = "accept-" + (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
        let result = linkd_notification_ask(
            try Libsystemd.calls(),
            summary,
            body,
            key,
            accept,
            decline,
            microseconds(timeout)
        )
        guard result >= 0 else {
            throw .busFailed(operation: "ask in a notification", errno: Errno(rawValue: -result), detail: nil)
        }
        return result == 1
    }

    private static func microseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000_000)
    }
}
