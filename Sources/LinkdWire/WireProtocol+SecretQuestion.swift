package import LinkdFormats

extension WireProtocol {
    /// A question for a secret the daemon asks the client during a reset, answered by `linkd open` with
    /// ``WireProtocol/answer(_:to:)``: the new password, `{"ask": "password", "prompt", "error"?}`, or a code (an
    /// authenticator app's for the account's second factor), `{"ask": "code", "prompt", "error"?}`.
    package struct SecretQuestion: Sendable, Equatable {
        /// What is asked for.
        package enum Asked: String, Sendable {
            case password
            case code
        }

        package var asked: Asked
        package var prompt: String
        /// Why the answer given before was refused, in the backend's words.
        package var error: String?

        package init(_ asked: Asked = .password, prompt: String, error: String?) {
            self.asked = asked
            self.prompt = prompt
            self.error = error
        }

        /// The question in a line the daemon sent, or `nil` when the line is an answer to a request.
        package init?(_ object: JSONValue) {
            guard let asked = object["ask"]?.stringValue.flatMap(Asked.init(rawValue:)) else { return nil }
            self.asked = asked
            prompt = WireProtocol.daemonText(object["prompt"]) ?? (asked == .password ? "New password" : "Code")
            error = WireProtocol.daemonText(object["error"])
        }

        /// The question as a line, without its LF.
        package var line: String {
            var members: [(String, JSONValue)] = [("ask", .string(asked.rawValue)), ("prompt", .string(prompt))]
            if let error { members.append(("error", .string(error))) }
            return JSONValue.object(members).serialized
        }
    }

    /// The client's answer to `question`: `{"password": …}` or `{"code": …}`, `null` when it has none.
    package static func answer(_ secret: Secret?, to question: SecretQuestion) -> String {
        JSONValue.object([(question.asked.rawValue, secret.map { .string($0.revealed()) } ?? .null)]).serialized
    }

    /// The secret a client's answer to `question` holds; `nil` for `null`, an empty one, or anything else.
    package static func secret(inAnswer answer: JSONValue?, to question: SecretQuestion) -> Secret? {
        guard let secret = answer?[question.asked.rawValue]?.stringValue, !secret.isEmpty else { return nil }
        return Secret(secret)
    }
}
