package import LinkdFormats

/// How the configuration reads one kind of backend's own keys (`"apiKey"` for Supabase): the kind's settings type
/// conforms, and ``BackendKinds`` lists it.
package protocol BackendSettingsReading: BackendSettings {
    /// The keys of the backend's object that are the kind's own, besides `kind`, `url` and `caFile`.
    static var keys: Set<String> { get }

    /// The tail of a URL path that linkd appends itself for this kind (`/auth/v1`), so that a URL that ends in it is
    /// a mistake; `nil` when `pathname` does not end in it.
    static func appendedPart(of pathname: String) -> Substring?

    /// Reads the kind's own keys of the backend's `object` at `path`; a problem goes to `decoder`.
    static func decode(_ object: JSONValue, at path: String, with decoder: inout AppConfigDecoder) -> Self?
}

extension BackendSettingsReading {
    package static func appendedPart(of pathname: String) -> Substring? { nil }
}

/// The kinds of backend apps.d may name, in the order a problem lists them. linkd's are ``linkd``; a new kind is one
/// settings type, listed here.
package struct BackendKinds: Sendable {
    /// Every kind, in order.
    package let all: [any BackendSettingsReading.Type]

    package init(_ all: [any BackendSettingsReading.Type]) {
        self.all = all
    }

    /// Supabase Auth and Atlas App Services.
    package static let linkd = BackendKinds([SupabaseSettings.self, AppServicesSettings.self])

    /// The kind named `keyword`.
    package func kind(_ keyword: String?) -> (any BackendSettingsReading.Type)? {
        all.first { $0.keyword == keyword }
    }

    /// The keywords as a problem lists them: `'supabase' or 'appservices'`.
    var listed: String {
        let quoted = all.map { "'\($0.keyword)'" }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
    }
}
