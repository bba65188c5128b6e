package import LinkdRouting

/// An auth backend linkd talks to, as an app's configuration names it: the session layer makes its client of it
/// (`makeBackend()`).
package struct BackendConfig: Sendable, Hashable {
    /// Which API the backend speaks.
    package enum Kind: Sendable, Hashable {
        /// Supabase Auth (GoTrue): linkd appends `/auth/v1`.
        case supabase(apiKey: Secret)
        /// Atlas App Services: linkd appends `/api/client/v2.0/app/{appId}`.
        case appServices(appID: String)
    }

    package var kind: Kind
    /// The base URL: https, or plain http for loopback hosts alone.
    package var url: LinkURL
    /// An extra CA certificate (PEM) to trust.
    package var caFile: String?
    /// An App Services app whose email/password provider runs a reset function: the `arguments` it is called with,
    /// as a JSON array's text (`[]` for none); `nil` when the provider emails reset links.
    package var resetFunctionArguments: String?
    /// A Supabase project whose reset and magic-link emails carry the 6-digit code (`{{ .Token }}`) beside the link,
    /// which `linkd reset --code` and `linkd login --code` take.
    package var emailsCarryCodes = false

    /// A backend of `kind` at `url`, trusting `caFile` too.
    package init(kind: Kind, url: LinkURL, caFile: String? = nil) {
        self.kind = kind
        self.url = url
        self.caFile = caFile
    }

    /// The backend's name for people: `Supabase`, `App Services`.
    package var name: String {
        switch kind {
        case .supabase: "Supabase"
        case .appServices: "App Services"
        }
    }

    /// The family whose links this backend can reset.
    package var format: AuthLinkFormat {
        switch kind {
        case .supabase: .supabase
        case .appServices: .appservices
        }
    }
}
