package import LinkdFormats

/// `"forward"`, or `{"forward": {"start": "desktop"}}`: the link goes to the app's running subscriber; with `start`,
/// linkd starts the app when no one is subscribed.
package struct ForwardSettings: ActionSettings {
    package static let keyword = "forward"
    package static let example = #""forward""#

    /// How linkd starts an app that is not subscribed.
    package enum Start: String, Sendable, Equatable {
        /// Its desktop entry, `<app>.desktop`: D-Bus activation when it is `DBusActivatable`, else its `Exec`.
        case desktop
    }

    /// How the app is started when no one is subscribed; `nil`: its links wait for it.
    package let start: Start?

    package init(start: Start? = nil) {
        self.start = start
    }

    package static func decode(_ value: JSONValue?, at path: String, with decoder: inout AppConfigDecoder) -> Self? {
        guard let value else { return ForwardSettings() }
        guard value.objectMembers != nil else {
            decoder.fail(path, #"expected {"start": "desktop"}"#)
            return nil
        }
        decoder.checkKeys(value, allowed: ["start"], at: path)
        guard let text = decoder.string(value["start"], at: path + ".start") else { return nil }
        guard let start = Start(rawValue: text) else {
            decoder.fail(path + ".start", #"expected "desktop""#)
            return nil
        }
        return ForwardSettings(start: start)
    }

    package var json: JSONValue {
        guard let start else { return .string("forward") }
        return .object([("forward", .object([("start", .string(start.rawValue))]))])
    }

    package var summary: String { start.map { "forward (start: \($0.rawValue))" } ?? "forward" }
}
