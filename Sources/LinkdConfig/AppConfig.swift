package import LinkdFormats
package import LinkdRouting

/// One app's configuration: a JSON file in an `apps.d` folder.
package struct AppConfig: Sendable {
    /// The app id (`com.example.Notes`).
    package var app: String
    /// The file it was read from.
    package var file: String
    /// The links the app claims, in order.
    package var links: [LinkConfig]
    /// The app's backend, for `reset` links that name none of their own.
    package var backend: BackendConfig?
    /// Sign in with Apple's web flow, when the app offers it.
    package var apple: AppleConfig? = nil
}

/// Sign in with Apple for an app (`"apple"`): the Services ID the app registered with Apple, the page of the app's
/// own that receives Apple's `form_post` and redirects to the app's `apple` sign-in link, and Apple's authorization
/// address.
package struct AppleConfig: Sendable, Equatable {
    /// The Apple Services ID (`client_id`).
    package var clientID: String
    /// The Return URL registered for it (`redirect_uri`).
    package var redirectURI: String
    /// Where the browser asks Apple (default `https://appleid.apple.com/auth/authorize`).
    package var authorizeURL: String

    package static let defaultAuthorizeURL = "https://appleid.apple.com/auth/authorize"
}

/// A link an app claims.
package struct LinkConfig: Sendable {
    /// The pattern (`com.example.notes://reset`).
    package var match: RoutePattern
    /// The family of built-in rules that reads the link; `nil` for a format-less link (captures and parameters).
    package var format: AuthLinkFormat?
    /// What linkd does with a routed link.
    package var action: LinkAction
    /// A backend for this link alone, when the app talks to two.
    package var backend: BackendConfig?
    /// The link's JSON path in its file (`$.links[2]`).
    package var path: String
    /// Where its `match` value stands in its file.
    package var position: TextPosition
}
