package import LinkdFormats

extension WireProtocol {
    /// The text of one field of a line a daemon sent, as a client may show it: through ``DisplayText/sanitize(_:)``
    /// (C0 and C1 controls, and with them every ESC, CSI, OSC and BEL, written as `\u{…}`; bidi and other format
    /// controls removed). Every string a client reads from a daemon — a response's route, app and message, a
    /// failure's message and part, a question's prompt and error — is read through it, so that what a daemon of the
    /// same user answers reaches a terminal, a notification or a log only as text. `nil` when the field is absent or
    /// not a string.
    package static func daemonText(_ value: JSONValue?) -> String? {
        value?.stringValue.map(DisplayText.sanitize)
    }
}
