package import LinkdFormats

/// The daemon's wire protocol: newline-delimited JSON on the socket, one request per line, one ``Response`` per
/// request. The daemon may ask the client for a password in between (``SecretQuestion``).
package enum WireProtocol {
    /// The longest request line, in bytes.
    package static let maximumLine = 65_536

    /// A request a client sends.
    package enum Request: Sendable, Equatable {
        /// `{"op": "open", "url": "…", "interactive": true}`, and `"confirm": true` when the client can ask the
        /// person to confirm a sign-in (``ConfirmQuestion``); `"web": true` for a clicked web link, which the daemon
        /// answers with ``Failure/appUnavailable`` when its app cannot take it now, so that the browser opens it;
        /// `"focus"`: the click's ``Focus``, for what the link wakes.
        case open(url: String, interactive: Bool, canConfirm: Bool = false, web: Bool = false, focus: Focus? = nil)
        /// `{"op": "subscribe", "app": "…"}`: the connection then receives the app's `forward` links, one JSON line
        /// each; with `"key": "…"`, the app's subscriber key, its forwarded sessions too.
        case subscribe(app: String, key: Secret? = nil)
        /// `{"op": "await_signin", "app": "…"}`, from `linkd login --provider`: answered with the outcome of the
        /// sign-in to the app that comes back from the browser; with `"confirm": true` (it holds a terminal), the
        /// daemon asks it to confirm that sign-in first (``ConfirmQuestion``).
        case awaitSignIn(app: String, canConfirm: Bool)

        /// Reads one request line.
        ///
        /// - Throws: a ``Failure`` of kind ``Failure/Kind/request``: not one JSON object, no `op`, an unknown `op`, or
        ///   a missing member.
        package init(line: [UInt8]) throws(Failure) {
            guard let object = try? JSONValue.parse(line), object.objectMembers != nil else {
                throw .badRequest("a request is one JSON object per line")
            }
            guard let op = object["op"]?.stringValue else { throw .badRequest("the request has no 'op'") }
            switch op {
            case "open":
                guard let url = object["url"]?.stringValue else {
                    throw .badRequest("an 'open' request needs a 'url' string")
                }
                self = .open(
                    url: url,
                    interactive: object["interactive"]?.boolValue ?? false,
                    canConfirm: object["confirm"]?.boolValue ?? false,
                    web: object["web"]?.boolValue ?? false,
                    focus: Focus(json: object["focus"])
                )
            case "subscribe":
                guard let app = object["app"]?.stringValue, !app.isEmpty else {
                    throw .badRequest("a 'subscribe' request needs an 'app' string")
                }
                let key = object["key"]?.stringValue
                guard object["key"] == nil || key != nil else {
                    throw .badRequest("a subscription's 'key' is a string")
                }
                self = .subscribe(app: app, key: key.map(Secret.init))
            case "await_signin":
                guard let app = object["app"]?.stringValue, !app.isEmpty else {
                    throw .badRequest("an 'await_signin' request needs an 'app' string")
                }
                self = .awaitSignIn(app: app, canConfirm: object["confirm"]?.boolValue ?? false)
            default:
                throw Failure(
                    kind: .request,
                    reason: .unknownOp,
                    message: "unknown op '\(DisplayText.sanitize(String(op.prefix(64))))'"
                )
            }
        }

        /// The request as a line, without its LF.
        package var line: String {
            switch self {
            case .open(let url, let interactive, let canConfirm, let web, let focus):
                JSONValue.object(
                    [("op", .string("open")), ("url", .string(url)), ("interactive", .bool(interactive))]
                        + (canConfirm ? [("confirm", .bool(true))] : []) + (web ? [("web", .bool(true))] : [])
                        + (focus.map { [("focus", $0.json)] } ?? [])
                ).serialized
            case .awaitSignIn(let app, let canConfirm):
                JSONValue.object(
                    [("op", .string("await_signin")), ("app", .string(app))]
                        + (canConfirm ? [("confirm", .bool(true))] : [])
                ).serialized
            case .subscribe(let app, let key):
                JSONValue.object(
                    [("op", .string("subscribe")), ("app", .string(app))]
                        + (key.map { [("key", .string($0.revealed()))] } ?? [])
                ).serialized
            }
        }
    }
}
