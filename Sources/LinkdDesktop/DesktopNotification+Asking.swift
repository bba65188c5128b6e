import LinkdFormats
import LinkdSystem

extension DesktopNotification {
    /// Whether a notification can ask the person: the session's notification server shows buttons. Asked within
    /// `timeout`, off the caller's thread (sd-bus blocks).
    package static func canAsk(timeout: Duration = .seconds(2)) async -> Bool {
        await BlockingCall.run { SessionBus.notificationsHaveActions(timeout: timeout) }
    }

    /// Asks the person in a notification with two buttons, `accept` and `decline`, and waits up to `timeout` for the
    /// answer, off the caller's thread; the body's markup is escaped and control characters are stripped from all.
    ///
    /// - Returns: whether they pressed `accept`; `false` for `decline`, a dismissal, no answer in time, or a
    ///   notification that could not be shown.
    package static func ask(
        summary: String,
        body: String,
        accept: String,
        decline: String,
        timeout: Duration = .seconds(60)
    ) async -> Bool {
        let title = DisplayText.sanitize(summary)
        let text = DisplayText.escapeMarkup(body)
        let buttons = (DisplayText.sanitize(accept), DisplayText.sanitize(decline))
        return await BlockingCall.run {
            let accepted = try? SessionBus.ask(
                summary: title,
                body: text,
                accept: buttons.0,
                decline: buttons.1,
                timeout: timeout
            )
            return accepted ?? false
        }
    }
}
