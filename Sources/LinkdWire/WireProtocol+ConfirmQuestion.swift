package import LinkdFormats

extension WireProtocol {
    /// A question the daemon asks a client that said it can ask the person (`"confirm": true`) before it delivers a
    /// sign-in linkd did not start: `{"ask": "confirm", "prompt": "Sign in to APP as EMAIL?"}`, answered with
    /// ``WireProtocol/confirmAnswer(_:)``.
    package struct ConfirmQuestion: Sendable, Equatable {
        package var prompt: String

        package init(prompt: String) {
            self.prompt = prompt
        }

        /// The question in a line the daemon sent, or `nil` when the line is something else.
        package init?(_ object: JSONValue) {
            guard object["ask"]?.stringValue == "confirm" else { return nil }
            prompt = WireProtocol.daemonText(object["prompt"]) ?? "Confirm?"
        }

        /// The question as a line, without its LF.
        package var line: String {
            JSONValue.object([("ask", .string("confirm")), ("prompt", .string(prompt))]).serialized
        }
    }

    /// The client's answer to a ``ConfirmQuestion``: `{"confirm": true}` when the person said yes.
    package static func confirmAnswer(_ confirmed: Bool) -> String {
        JSONValue.object([("confirm", .bool(confirmed))]).serialized
    }

    /// Whether a client's answer confirms: `{"confirm": true}` and nothing else does.
    package static func isConfirmed(inAnswer answer: JSONValue?) -> Bool {
        answer?["confirm"]?.boolValue == true
    }
}
