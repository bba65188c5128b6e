package import LinkdFormats

/// What one action's entry in apps.d says (`"reset"`, `{"exec": [argv…]}` …), read by the action's own file: the
/// config reader knows the actions only through the kinds it is given (``ActionKinds``).
///
/// apps.d writes an action either as its keyword alone (`"forward"`) or as an object whose one member is named by
/// the keyword and holds the settings (`{"dbus": "com.example.Notes"}`).
package protocol ActionSettings: Sendable {
    /// The keyword apps.d names the action by.
    static var keyword: String { get }

    /// How apps.d writes the action, for the problem that names every action an entry may be:
    /// `"reset"`, `{"exec": [argv…]}`.
    static var example: String { get }

    /// Reads the settings: `value` is the keyword's member (`nil` when the entry is the keyword alone); a problem
    /// goes to `decoder` at `path` (the member's own path, `$.links[0].action.exec`).
    static func decode(_ value: JSONValue?, at path: String, with decoder: inout AppConfigDecoder) -> Self?

    /// Checks the action against the rest of its link (its format and backend) once the link is read; a problem
    /// goes to `decoder`. Most actions need nothing of the link.
    func check(_ link: ActionLinkFacts, at path: String, with decoder: inout AppConfigDecoder)

    /// The settings as apps.d writes them, for `linkd route --json`.
    var json: JSONValue { get }

    /// The action in a line of `linkd route`: `forward`, `exec /usr/bin/notes --open`.
    var summary: String { get }
}

extension ActionSettings {
    package func check(_ link: ActionLinkFacts, at path: String, with decoder: inout AppConfigDecoder) {}
}

/// What an action may need to know of the rest of its link to check it (``ActionSettings/check(_:at:with:)``).
package struct ActionLinkFacts: Sendable {
    /// The link's format, when it names one.
    package var format: AuthLinkFormat?
    /// The backend it talks to: its own, else its app's.
    package var backend: BackendConfig?
    /// Whether the backend is the link's own (`$.links[n].backend`) rather than the app's (`$.backend`).
    package var hasOwnBackend: Bool
    /// Whether the app configures Sign in with Apple.
    package var hasApple: Bool
}

/// What linkd does with a routed link: one action's settings.
package struct LinkAction: Sendable, Equatable {
    /// The settings, of the type of the action's own file.
    package let settings: any ActionSettings

    package init(_ settings: some ActionSettings) {
        self.settings = settings
    }

    /// The keyword apps.d names the action by: the daemon finds the action's code by it.
    package var keyword: String { type(of: settings).keyword }

    /// The settings when they are of `type`.
    package func settings<Settings: ActionSettings>(as type: Settings.Type) -> Settings? { settings as? Settings }

    /// Two actions are the same when apps.d writes them the same.
    package static func == (left: LinkAction, right: LinkAction) -> Bool {
        left.keyword == right.keyword && left.settings.json == right.settings.json
    }
}

/// The actions apps.d may name, each by its keyword, in the order the problem naming them lists them.
package struct ActionKinds: Sendable {
    /// Every kind, in order.
    package let all: [any ActionSettings.Type]
    private let byKeyword: [String: any ActionSettings.Type]

    package init(_ all: [any ActionSettings.Type]) {
        self.all = all
        byKeyword = Dictionary(uniqueKeysWithValues: all.map { ($0.keyword, $0) })
    }

    /// The kind named `keyword`.
    package func kind(_ keyword: String) -> (any ActionSettings.Type)? { byKeyword[keyword] }

    /// Every keyword, in order.
    package var keywords: [String] { all.map { $0.keyword } }
}
