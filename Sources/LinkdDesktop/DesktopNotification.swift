import Dispatch
import LinkdFormats
package import LinkdSystem

/// Desktop notifications (`org.freedesktop.Notifications.Notify` on the session bus).
package enum DesktopNotification {
    /// sd-bus calls block: they run on this queue, never on the cooperative pool.
    private static let queue = DispatchQueue(label: "linkd.notifications")

    /// Shows `summary` and `body`; the body's markup is escaped and its control characters stripped.
    ///
    /// - Throws: ``SystemdError/busFailed(operation:errno:detail:)`` when no notification server answers within
    ///   `timeout`.
    package static func show(summary: String, body: String, timeout: Duration = .seconds(5)) async throws(SystemdError)
    {
        let text = DisplayText.escapeMarkup(body)
        let failure = await withCheckedContinuation { (continuation: CheckedContinuation<SystemdError?, Never>) in
            queue.async {
                do throws(SystemdError) {
                    try SessionBus.notify(summary: DisplayText.sanitize(summary), body: text, timeout: timeout)
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: error)
                }
            }
        }
        if let failure { throw failure }
    }
}
