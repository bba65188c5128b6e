package import LinkdRouting

/// An auth backend linkd talks to, as an app's configuration names it: the session layer makes its client of it
/// (`makeBackend()`).
package struct BackendConfig: Sendable, Hashable {
    /// What the configuration says of the backend's kind (`"kind": "supabase"` and that kind's own keys).
    package var kind: any BackendSettings
    /// The base URL: https, or plain http for loopback hosts alone.
    package var url: LinkURL
    /// An extra CA certificate (PEM) to trust.
    package var caFile: String?

    /// A backend of `kind` at `url`, trusting `caFile` too.
    package init(kind: some BackendSettings, url: LinkURL, caFile: String? = nil) {
        self.kind = kind
        self.url = url
        self.caFile = caFile
    }

    /// The backend's name for people: `Supabase`, `App Services`.
    package var name: String { type(of: kind).name }

    /// The family whose links this backend can reset and sign in with.
    package var format: AuthLinkFormat { type(of: kind).format }

    /// An App Services app whose email/password provider runs a reset function: the `arguments` it is called with,
    /// as a JSON array's text (`[]` for none); `nil` when the provider emails reset links.
    package var resetFunctionArguments: String? { kind.resetFunctionArguments }

    /// A Supabase project whose reset and magic-link emails carry the 6-digit code (`{{ .Token }}`) beside the link,
    /// which `linkd reset --code` and `linkd login --code` take.
    package var emailsCarryCodes: Bool { kind.emailsCarryCodes }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        AnyHashable(lhs.kind) == AnyHashable(rhs.kind) && lhs.url == rhs.url && lhs.caFile == rhs.caFile
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(kind))
        hasher.combine(url)
        hasher.combine(caFile)
    }
}

/// What an app's configuration says of a backend of one kind: each kind is one type, which the configuration reads
/// (its `BackendSettingsReading` conformance, in LinkdConfig) and the session layer makes its client of (its
/// `SessionBackendMaking` conformance, in LinkdSession).
package protocol BackendSettings: Sendable, Hashable {
    /// The `kind` apps.d names it by: `supabase`.
    static var keyword: String { get }
    /// The backend's name for people: `Supabase`.
    static var name: String { get }
    /// The family of links the backend resets and signs in with.
    static var format: AuthLinkFormat { get }
    /// The arguments of the backend's reset function, when the configuration turns one on.
    var resetFunctionArguments: String? { get }
    /// Whether the backend's emails carry a 6-digit code beside the link.
    var emailsCarryCodes: Bool { get }
}

extension BackendSettings {
    package var resetFunctionArguments: String? { nil }
    package var emailsCarryCodes: Bool { false }
}

/// Supabase Auth (GoTrue): linkd appends `/auth/v1`.
package struct SupabaseSettings: BackendSettings {
    package static let keyword = "supabase"
    package static let name = "Supabase"
    package static let format = AuthLinkFormat.supabase

    /// The project's anon key.
    package var apiKey: Secret
    package var emailsCarryCodes: Bool

    package init(apiKey: Secret, emailsCarryCodes: Bool = false) {
        self.apiKey = apiKey
        self.emailsCarryCodes = emailsCarryCodes
    }
}

/// Atlas App Services: linkd appends `/api/client/v2.0/app/{appId}`.
package struct AppServicesSettings: BackendSettings {
    package static let keyword = "appservices"
    package static let name = "App Services"
    package static let format = AuthLinkFormat.appservices

    /// The App Services app id.
    package var appID: String
    package var resetFunctionArguments: String?

    package init(appID: String, resetFunctionArguments: String? = nil) {
        self.appID = appID
        self.resetFunctionArguments = resetFunctionArguments
    }
}

extension BackendSettings where Self == SupabaseSettings {
    /// A Supabase project with the anon key `apiKey`.
    package static func supabase(apiKey: Secret, emailsCarryCodes: Bool = false) -> Self {
        SupabaseSettings(apiKey: apiKey, emailsCarryCodes: emailsCarryCodes)
    }
}

extension BackendSettings where Self == AppServicesSettings {
    /// The App Services app `appID`.
    package static func appServices(appID: String, resetFunctionArguments: String? = nil) -> Self {
        AppServicesSettings(appID: appID, resetFunctionArguments: resetFunctionArguments)
    }
}
