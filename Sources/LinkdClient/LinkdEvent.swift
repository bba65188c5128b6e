import LinkdSystem

/// What linkd sends an app.
public enum LinkdEvent: Sendable, Equatable {
    /// One of the app's links.
    case link(LinkdLink)
    /// A sign-in of the app: the session, never the link that carried it.
    case session(LinkdSession)
    /// A reset of the app changed the password of `account` (masked: `a***@example.com`).
    case resetDone(account: String)
    /// A reset of the app ended without changing the password: linkd's `reason` (`link_expired`,
    /// `password_rejected`, `cancelled`, …) and its words for it, which the app may show as they are.
    case resetFailed(reason: String, message: String)

    init?(_ signal: BusSignal) {
        let arguments = signal.arguments
        switch (signal.member, arguments.map(\.signature)) {
        case ("Link", ["s", "s", "a{ss}", "s", "a{ss}"]):
            self = .link(
                LinkdLink(
                    id: arguments[0].string ?? "",
                    route: arguments[1].string ?? "",
                    fields: arguments[2].dictionary ?? [:],
                    url: arguments[3].string ?? "",
                    platformData: arguments[4].dictionary ?? [:]
                )
            )
        case ("Session", ["s", "s", "s", "a{ss}", "a{ss}"]):
            self = .session(
                LinkdSession(
                    id: arguments[0].string ?? "",
                    route: arguments[1].string ?? "",
                    backend: arguments[2].string ?? "",
                    values: arguments[3].dictionary ?? [:],
                    platformData: arguments[4].dictionary ?? [:]
                )
            )
        case ("ResetDone", ["s"]): self = .resetDone(account: arguments[0].string ?? "")
        case ("ResetFailed", ["s", "s"]):
            self = .resetFailed(reason: arguments[0].string ?? "", message: arguments[1].string ?? "")
        default: return nil
        }
    }
}

/// What a reset or a sign-in asks the person, in the app's window.
public struct LinkdQuestion: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The new password.
        case password
        /// A second factor's code (an authenticator app's, or one the backend sent).
        case code
        /// Whether to keep a sign-in that came back from the browser or a mailed link ("Sign in to APP as EMAIL?"):
        /// answer `yes` to keep it; anything else, or `nil`, refuses it and no session comes.
        case confirm
    }

    public let kind: Kind
    /// What to ask: it names the whole account whose password changes.
    public let prompt: String
    /// The backend's refusal of the last answer (a password too weak), or `nil` the first time.
    public let rejection: String?
}

/// A link of the app, read: its route and fields.
public struct LinkdLink: Sendable, Equatable {
    /// The link's id in linkd's spool: the same when linkd sends it again after a crash.
    public let id: String
    /// The route's id: the `match` pattern of a route the app declared, or a format's route (`supabase.pkce`).
    public let route: String
    /// The route's fields: its captures and parameters (numbers in decimal).
    public let fields: [String: String]
    /// The whole link.
    public let url: String
    /// The click's focus, as `org.freedesktop.Application` platform data: `activation-token` (Wayland) and
    /// `desktop-startup-id` (X11), for the window that shows the link (GTK: `gtk_window_set_startup_id`); empty when
    /// the click gave none.
    public let platformData: [String: String]

    /// The click's Wayland activation token, if any.
    public var activationToken: String? { platformData["activation-token"] }
}

/// A signed-in session of the app.
public struct LinkdSession: Sendable, Equatable {
    /// The id of the link that signed in.
    public let id: String
    /// The route of that link.
    public let route: String
    /// `supabase` or `appservices`.
    public let backend: String
    /// Every value linkd sent: `access_token`, `refresh_token`, `expires_at`, `token_type`, `provider`, `user_id`,
    /// `user_email` (and `user_name` when the backend gave one).
    public let values: [String: String]
    /// The click's focus, as for ``LinkdLink/platformData``.
    public let platformData: [String: String]

    public var accessToken: String { values["access_token"] ?? "" }
    public var refreshToken: String { values["refresh_token"] ?? "" }
    /// When the access token expires, in seconds since 1970.
    public var expiresAt: Int? { values["expires_at"].flatMap { Int($0) } }
    public var userID: String? { values["user_id"] }
    public var userEmail: String? { values["user_email"] }
}

extension LinkdEvent {
    /// The id of a link or session, which linkd waits to hear was received; `nil` for the other events.
    var deliveryID: String? {
        switch self {
        case .link(let link): link.id
        case .session(let session): session.id
        default: nil
        }
    }
}
