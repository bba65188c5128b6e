package import LinkdFormats

/// `{"dbus": "com.example.Notes"}`: the app id `Open` is called on.
package struct DBusSettings: ActionSettings {
    package static let keyword = "dbus"
    package static let example = #"{"dbus": "app.id"}"#
    package let appID: String

    package init(appID: String) {
        self.appID = appID
    }

    package static func decode(_ value: JSONValue?, at path: String, with decoder: inout AppConfigDecoder) -> Self? {
        decoder.appID(value, at: path).map(DBusSettings.init)
    }

    package var json: JSONValue { .object([("dbus", .string(appID))]) }
    package var summary: String { "dbus " + DisplayText.sanitize(appID) }
}
