package import LinkdFormats

extension WireProtocol {
    /// Where an accepted link stands when the daemon answers.
    package enum State: String, Sendable, CaseIterable {
        /// The action finished (a reset: the password changed).
        case done
        /// Waiting for its app to subscribe (`forward`).
        case queued
        /// Handed to the app: its program read it, its D-Bus service took it, or its subscriber got it.
        case delivered
    }

    /// The daemon's answer to one request.
    package enum Response: Sendable, Equatable {
        /// `{"ok": true, "route", "app", "state", "message"?}`; a reset's `message` says whose password changed.
        case accepted(route: String, app: String?, state: State, message: String? = nil)
        /// `{"ok": true, "app", "state": "subscribed"}`, the answer to a subscription.
        case subscribed(app: String)
        /// `{"ok": true, "app", "state": "waiting"}`, the first answer to `await_signin`: the daemon waits for the
        /// app's sign-in from the browser (the outcome follows, on a line of its own).
        case waiting(app: String)
        /// `{"ok": false, "error": {…}}`.
        case failed(Failure)

        /// The response's members, in order: the line's object, and what `linkd open --json` prints after `input`.
        package var members: [(String, JSONValue)] {
            switch self {
            case .accepted(let route, let app, let state, let message):
                var members: [(String, JSONValue)] = [
                    ("ok", .bool(true)), ("route", .string(route)), ("app", app.map(JSONValue.string) ?? .null),
                    ("state", .string(state.rawValue)),
                ]
                if let message { members.append(("message", .string(message))) }
                return members
            case .subscribed(let app):
                return [("ok", .bool(true)), ("app", .string(app)), ("state", .string("subscribed"))]
            case .waiting(let app):
                return [("ok", .bool(true)), ("app", .string(app)), ("state", .string("waiting"))]
            case .failed(let failure):
                return [("ok", .bool(false)), ("error", failure.json)]
            }
        }

        /// The response as a line, without its LF.
        package var line: String { JSONValue.object(members).serialized }

        /// Reads a response line a daemon sent. Anything that is not a response reads as a failure of kind
        /// ``Failure/Kind/request`` (`bad_response`) that quotes the start of the line.
        package init(line: [UInt8]) {
            let object = (try? JSONValue.parse(line)) ?? .null
            let text = DisplayText.sanitize(String(decoding: line.prefix(200), as: UTF8.self))
            let unreadable = Failure(
                kind: .request,
                reason: .badResponse,
                message: "the daemon answered '\(text)'"
            )
            guard object["ok"]?.boolValue == true else {
                self = .failed(object["error"].flatMap(Failure.init) ?? unreadable)
                return
            }
            let stateText = object["state"]?.stringValue ?? State.done.rawValue
            if stateText == "subscribed", let app = WireProtocol.daemonText(object["app"]) {
                self = .subscribed(app: app)
                return
            }
            if stateText == "waiting", let app = WireProtocol.daemonText(object["app"]) {
                self = .waiting(app: app)
                return
            }
            guard let state = State(rawValue: stateText) else {
                self = .failed(unreadable)
                return
            }
            self = .accepted(
                route: WireProtocol.daemonText(object["route"]) ?? "",
                app: WireProtocol.daemonText(object["app"]),
                state: state,
                message: WireProtocol.daemonText(object["message"])
            )
        }

        /// The failure, when the link failed.
        package var failure: Failure? {
            if case .failed(let failure) = self { return failure }
            return nil
        }
    }
}
