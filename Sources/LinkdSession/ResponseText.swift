import LinkdFormats

/// Text from a backend's response made fit to show: format controls removed, controls escaped, length bounded.
enum ResponseText {
    static func clean(_ text: String, limit: Int) -> String {
        let shown = DisplayText.sanitize(text)
        return shown.count <= limit ? shown : String(shown.prefix(limit - 1)) + "…"
    }

    /// The message for a body that carries none. The body itself is never shown: a broken server might echo the
    /// request, and the request may carry a token or the password.
    static func fallback(status: Int, body: some Collection<UInt8>) -> String {
        body.isEmpty
            ? "the server answered HTTP \(status) with no message"
            : "the server answered HTTP \(status) with a body linkd cannot read (\(body.count) bytes)"
    }
}
