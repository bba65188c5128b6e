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

/// What linkd does with a routed link.
package enum LinkAction: Sendable, Hashable {
    /// Run the password reset with the app's backend.
    case reset
    /// Start a program and hand it the route as JSON on standard input: the argv, whose first word is the program's
    /// absolute path as ``ProgramSearch`` found it when the configuration was read, so that exactly that file runs
    /// (or, when it was not found, the name as written, which is never run).
    case exec([String])
    /// Call `org.freedesktop.Application.Open` on the app id.
    case dbus(String)
    /// Deliver to a running app subscribed on the socket.
    case forward
    /// Turn the link into a session with the app's backend and deliver the session, never the link.
    case signin(SignInDelivery)

    /// The word apps.d names the action by (`"reset"`, `{"exec": …}` …): the daemon finds the action's code by it.
    package var keyword: String {
        switch self {
        case .reset: "reset"
        case .exec: "exec"
        case .dbus: "dbus"
        case .forward: "forward"
        case .signin: "signin"
        }
    }

    /// Every action's keyword.
    package static let keywords = ["reset", "exec", "dbus", "forward", "signin"]
}

/// Where a `signin` action delivers the session.
package enum SignInDelivery: Sendable, Hashable {
    /// Start the program (argv as in ``LinkAction/exec(_:)``) and hand it the session as JSON on standard input.
    case exec([String])
    /// Hand the session to the app's subscriber (as ``LinkAction/forward`` does a link), waiting in the daemon's
    /// memory, never on disk, until the app subscribes or the time to live passes.
    case forward
}
