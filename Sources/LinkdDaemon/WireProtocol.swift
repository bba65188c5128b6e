package import LinkdFormats

/// The daemon's wire protocol: newline-delimited JSON, one request per line, one response per request.
package enum WireProtocol {
    /// The longest request line, in bytes.
    package static let maximumLine = 65_536

    /// A request a client sends.
    package enum Request: Sendable, Equatable {
        /// `{"op": "open", "url": "…", "interactive": true}`.
        case open(url: String, interactive: Bool)
        /// `{"op": "subscribe", "app": "…"}`: the connection then receives the app's `forward` links, one JSON line each.
        case subscribe(app: String)
    }

    /// A refusal in a response: `{"kind", "reason", "part"?, "message"}`.
    package struct Failure: Error, Sendable, Equatable {
        package var kind: String
        package var reason: String
        package var part: String?
        package var message: String

        package init(kind: String, reason: String, part: String? = nil, message: String) {
            self.kind = kind
            self.reason = reason
            self.part = part
            self.message = message
        }

        var json: JSONValue {
            var members: [(String, JSONValue)] = [("kind", .string(kind)), ("reason", .string(reason))]
            if let part { members.append(("part", .string(part))) }
            // A message may quote text linkd did not write (an app's D-Bus error, say) that quotes the link.
            members.append(("message", .string(LinkRedactor.redact(message))))
            return .object(members)
        }
    }

    /// Reads one request line.
    package static func decode(_ line: [UInt8]) -> Result<Request, Failure> {
        guard let object = try? JSONValue.parse(line), object.objectMembers != nil else {
            return .failure(
                Failure(kind: "request", reason: "bad_request", message: "a request is one JSON object per line")
            )
        }
        guard let op = object["op"]?.stringValue else {
            return .failure(Failure(kind: "request", reason: "bad_request", message: "the request has no 'op'"))
        }
        switch op {
        case "open":
            guard let url = object["url"]?.stringValue else {
                return .failure(
                    Failure(kind: "request", reason: "bad_request", message: "an 'open' request needs a 'url' string")
                )
            }
            return .success(.open(url: url, interactive: object["interactive"]?.boolValue ?? false))
        case "subscribe":
            guard let app = object["app"]?.stringValue, !app.isEmpty else {
                return .failure(
                    Failure(
                        kind: "request",
                        reason: "bad_request",
                        message: "a 'subscribe' request needs an 'app' string"
                    )
                )
            }
            return .success(.subscribe(app: app))
        default:
            return .failure(
                Failure(
                    kind: "request",
                    reason: "unknown_op",
                    message: "unknown op '\(DisplayText.sanitize(String(op.prefix(64))))'"
                )
            )
        }
    }

    /// `{"op": "open", …}` as a line, without its LF.
    package static func encode(_ request: Request) -> String {
        switch request {
        case .open(let url, let interactive):
            JSONValue.object([("op", .string("open")), ("url", .string(url)), ("interactive", .bool(interactive))])
                .serialized
        case .subscribe(let app):
            JSONValue.object([("op", .string("subscribe")), ("app", .string(app))]).serialized
        }
    }

    /// `{"ok": true, "route", "app", "state"}`, and for a reset a `message` for the person (whose password changed).
    package static func success(route: String, app: String?, state: String, message: String? = nil) -> String {
        var members: [(String, JSONValue)] = [
            ("ok", .bool(true)), ("route", .string(route)), ("app", app.map(JSONValue.string) ?? .null),
            ("state", .string(state)),
        ]
        if let message { members.append(("message", .string(message))) }
        return JSONValue.object(members).serialized
    }

    /// A question the daemon asks the client during a reset, `{"ask": "password", "prompt", "error"?}`, answered by
    /// `linkd open` with ``passwordAnswer(_:)``.
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
            prompt = DisplayText.sanitize(object["prompt"]?.stringValue ?? "New password")
            error = object["error"]?.stringValue.map(DisplayText.sanitize)
        }

        /// The question as a line, without its LF.
        package var line: String {
            var members: [(String, JSONValue)] = [("ask", .string("password")), ("prompt", .string(prompt))]
            if let error { members.append(("error", .string(error))) }
            return JSONValue.object(members).serialized
        }
    }

    /// The client's answer to a ``PasswordQuestion``: `{"password": "…"}`, or `{"password": null}` when it has none.
    package static func passwordAnswer(_ password: Secret?) -> String {
        JSONValue.object([("password", password.map { .string($0.revealed()) } ?? .null)]).serialized
    }

    /// The password in a client's answer; `nil` for `{"password": null}`, an empty one, or anything else.
    package static func password(inAnswer answer: JSONValue?) -> Secret? {
        guard let password = answer?["password"]?.stringValue, !password.isEmpty else { return nil }
        return Secret(password)
    }

    /// `{"ok": true, "app", "state": "subscribed"}`, the answer to a subscription.
    package static func subscribed(app: String) -> String {
        JSONValue.object([("ok", .bool(true)), ("app", .string(app)), ("state", .string("subscribed"))]).serialized
    }

    /// `{"ok": false, "error": {…}}`.
    package static func failure(_ failure: Failure) -> String {
        JSONValue.object([("ok", .bool(false)), ("error", failure.json)]).serialized
    }
}
