import LinkdFormats
import LinkdRouting

/// Text from a backend's response made fit to show: the request's secrets redacted, format controls removed,
/// controls escaped, length bounded.
enum ResponseText {
    /// `text` with `secrets` replaced by `<redacted>` (before anything is cut, so no part of one is left), then
    /// sanitised and cut to `limit` characters.
    static func clean(_ text: String, limit: Int, redacting secrets: [Secret] = []) -> String {
        let shown = DisplayText.sanitize(redact(text, secrets))
        return shown.count <= limit ? shown : String(shown.prefix(limit - 1)) + "…"
    }

    /// `text` without `secrets`: a backend that quotes the request it refuses would quote the password or a
    /// token, as sent (in JSON, so escaped as JSON) or percent-encoded.
    static func redact(_ text: String, _ secrets: [Secret]) -> String {
        var forms: Set<String> = []
        for secret in secrets where secret.byteCount > 0 {
            let value = secret.revealed()
            forms.insert(value)
            forms.insert(String(JSONValue.string(value).serialized.dropFirst().dropLast()))
            let encoded = PercentEncoding.encodeComponent(value)
            forms.insert(encoded)
            forms.insert(encoded.replacing("%20", with: "+"))
        }
        var output = text
        // The longest first: a form that holds another is replaced whole.
        for form in forms.sorted(by: { $0.count > $1.count }) where output.contains(form) {
            output = output.replacing(form, with: Secret.redacted)
        }
        return output
    }

    /// The message for a body that carries none. The body itself is never shown: a broken server might echo the
    /// request, and the request may carry a token or the password.
    static func fallback(status: Int, body: some Collection<UInt8>) -> String {
        body.isEmpty
            ? "the server answered HTTP \(status) with no message"
            : "the server answered HTTP \(status) with a body linkd cannot read (\(body.count) bytes)"
    }
}
