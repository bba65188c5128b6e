import LinkdFormats
import LinkdRouting
import LinkdWire

/// The one line a command writes to standard error for a link it could not take, numbered from 1 in the order the
/// links came: `Error: link 2: <message> [<reason> in <part>]`.
///
/// The message is redacted (unless `reveal`) and made safe for a terminal (``DisplayText/sanitize(_:)``), whoever
/// wrote it; the reason is a ``WireProtocol/Reason`` word, and a part is shown only when it is one word too.
enum LinkFailureLine {
    /// The line for a failure the daemon answered, or the client decided.
    static func text(link number: Int, _ failure: WireProtocol.Failure, reveal: Bool = false) -> String {
        text(link: number, message: failure.message, reason: failure.reason, part: failure.part, reveal: reveal)
    }

    /// The line for a link this process could not parse or route: a refusal names its reason and part.
    static func text(link number: Int, _ error: RouteError, reveal: Bool = false) -> String {
        let refusal = error.refusal
        return text(
            link: number,
            message: refusal?.message ?? error.description,
            reason: refusal.map { WireProtocol.Reason($0.reason) },
            part: refusal?.part.rawValue,
            reveal: reveal
        )
    }

    /// The line for `message`, with `reason` and `part` when there are.
    static func text(
        link number: Int,
        message: String,
        reason: WireProtocol.Reason? = nil,
        part: String? = nil,
        reveal: Bool = false
    ) -> String {
        let shown = DisplayText.sanitize(reveal ? message : LinkRedactor.redact(message))
        let place = part.flatMap { WireProtocol.Reason(rawValue: $0) }.map { " in \($0)" } ?? ""
        let tag = reason.map { " [\($0)\(place)]" } ?? ""
        return "Error: link \(number): \(shown)\(tag)\n"
    }
}
