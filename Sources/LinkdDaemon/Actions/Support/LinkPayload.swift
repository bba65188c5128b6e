import LinkdConfig
import LinkdFormats

/// What a program of an `exec` action, or an app's `forward` subscriber, gets for a link.
enum LinkPayload {
    /// `{"id", "app", "route", "fields", "url"}` and a newline: what a program (or a `forward` subscriber) gets.
    static func of(id: String, app: String, route: RoutedLink, url: String) -> [UInt8] {
        let fields = JSONValue.object(
            route.fields.map { field in
                switch field.value {
                case .number(let number): (field.name, .number(number))
                case .text(let text): (field.name, .string(text))
                case .secret(let secret): (field.name, .string(secret.revealed()))
                }
            }
        )
        let object = JSONValue.object([
            ("id", .string(id)), ("app", .string(app)), ("route", .string(route.id)), ("fields", fields),
            ("url", .string(url)),
        ])
        return Array((object.serialized + "\n").utf8)
    }
}
