import LinkdFormats
package import LinkdSystem

/// Desktop notifications (`org.freedesktop.Notifications.Notify` on the session bus).
package enum DesktopNotification {
    /// Shows `summary` and `body`; the body's markup is escaped and control characters are stripped from both.
    ///
    /// The whole of it — connecting to the bus, its handshake, the call — is bounded by `timeout`: sd-bus blocks
    /// (its handshake alone may wait 90 s for a bus that stopped answering), so it runs on a thread of its own, and
    /// the wait for it ends at `timeout` whatever that thread still does.
    ///
    /// - Throws: ``SystemError/busFailed(operation:errno:detail:)`` when no notification server answered in time.
    package static func show(
        summary: String,
        body: String,
        timeout: Duration = .seconds(5)
    ) async throws(SystemError) {
        let text = DisplayText.escapeMarkup(body)
        let title = DisplayText.sanitize(summary)
        let outcome = await BlockingCall.run(timeout: timeout) { () -> SystemError? in
            do throws(SystemError) {
                try SessionBus.notify(summary: title, body: text, timeout: timeout)
                return nil
            } catch {
                return error
            }
        }
        let failure =
            outcome
            ?? .busFailed(
                operation: "show a notification",
                errno: .timedOut,
                detail: "the session bus did not answer within \(timeout)"
            )
        if let failure { throw failure }
    }
}
