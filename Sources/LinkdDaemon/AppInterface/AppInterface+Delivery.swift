import LinkdFormats
import LinkdSystem

/// The signals of the interface that carry what the `forward` queue hands a subscriber.
enum Delivery {
    /// The signal for one line of the queue: `Link(id, route, fields, url, platform)` for a link's
    /// `{"id", "app", "route", "fields", "url"}`, `Session(id, route, backend, session, platform)` for a session's
    /// `{"id", "app", "route", "session": {…, "user": {…}}, "backend"}`; `nil` for a line that is neither. `platform`
    /// is the click's focus (`activation-token`, `desktop-startup-id`).
    static func signal(for line: String, platform: [String: String] = [:]) -> (member: String, arguments: [BusValue])? {
        guard let object = try? JSONValue.parse(Array(line.utf8)), let id = object["id"]?.stringValue,
            let route = object["route"]?.stringValue
        else { return nil }
        if let session = object["session"]?.objectMembers, let backend = object["backend"]?.stringValue {
            var entries: [String: String] = [:]
            for (key, value) in session {
                if key == "user", let user = value.objectMembers {
                    for (field, text) in user { entries["user_" + field] = Self.text(text) }
                } else {
                    entries[key] = Self.text(value)
                }
            }
            return (
                "Session", [.string(id), .string(route), .string(backend), .dictionary(entries), .dictionary(platform)]
            )
        }
        guard let fields = object["fields"]?.objectMembers, let url = object["url"]?.stringValue else { return nil }
        var entries: [String: String] = [:]
        for (key, value) in fields { entries[key] = Self.text(value) }
        return ("Link", [.string(id), .string(route), .dictionary(entries), .string(url), .dictionary(platform)])
    }

    /// A JSON string as it is, a number in decimal, a boolean as `true`/`false`; `nil` for anything else.
    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }
}
