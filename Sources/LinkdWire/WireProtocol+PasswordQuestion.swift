package import LinkdFormats

extension WireProtocol {
    /// A question the daemon asks the client during a reset, `{"ask": "password", "prompt", "error"?}`, answered by
    /// `linkd open` with ``WireProtocol/passwordAnswer(_:)``.
    package struct PasswordQuestion: Sendable, Equatable {
        package var prompt: String
        /// Why the password given before was refused, in the backend's words.
        package var error: String?

        package init(prompt: String, error: String?) {
            self.prompt = prompt
            self.error = error
        }

        /// The question in a line the daemon sent, or `nil` when the line is an answer to a request.
        package init?(_ object: JSONValue) {
            guard object["ask"]?.stringValue == "password" else { return nil }
            prompt = WireProtocol.daemonText(object["prompt"]) ?? "New password"
            error = WireProtocol.daemonText(object["error"])
        }

        /// The question as a line, without its LF.
        package var line: String {
            var members: [(String, JSONValue)] = [("ask", .string("password")), ("prompt", .string(prompt))]
            if let error { members.append(("error", .string(error))) }
            return JSONValue.object(members).serialized
        }
    }
}
