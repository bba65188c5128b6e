import LinkdConfig
import LinkdRouting
import LinkdSession
import LinkdWire

/// A link an app claimed, with its route: what an action acts on.
struct ClaimedLink: Sendable {
    /// The link as the client sent it (its `href`).
    let url: String
    let app: AppConfig
    /// The claiming link of the app's configuration.
    let claim: LinkConfig
    let route: RoutedLink
    /// The click's focus, for what the link wakes: in memory only, so a replayed link has none.
    var focus: WireProtocol.Focus? = nil

    /// The app's id.
    var appName: String { app.app }

    /// Two opens of the same link for the same app while the first runs are one run.
    var flightKey: String { app.app + "\n" + url }

    /// The structured log fields of this link and `entry`; never a secret, never the link's text.
    func logFields(_ entry: Spool.Entry) -> [(String, String)] {
        [("LINKD_LINK_ID", String(entry.shortID)), ("LINKD_APP", appName), ("LINKD_ROUTE", route.id)]
    }
}

/// The client a link came from, as an action sees it: it may answer a password question, and it may have gone.
protocol LinkClient: PasswordSource {
    /// Whether the client still waits for the answer; when it does not, the outcome goes to a notification.
    var isWaiting: Bool { get async }
    /// Whether the client said it can ask the person to confirm (its request's `"confirm": true`).
    var canConfirm: Bool { get async }
    /// Asks the person to confirm `prompt` (a sign-in linkd did not start); `false` unless they said yes.
    func confirm(prompt: String) async -> Bool
}

/// One kind of action an apps.d link names (`exec`, `dbus`, `forward`, `reset`, `signin`).
///
/// An action supplies what is its own: its settings, what it checks before a link is recorded (``plan(_:client:context:)``),
/// what its spool entry keeps and what the pipeline holds for it (``admission(_:link:)``), and its ``run(_:_:)``, which
/// returns an ``Outcome``. ``LinkService`` does the rest once for every action: it joins a repeat of the link to its
/// first run, takes a program slot, records the link in the spool, logs it, and, with the outcome, removes the entry,
/// gives the slot back and answers whoever joined.
///
/// To add an action: its settings (how apps.d writes it, how `linkd route` shows it) in
/// `Sources/LinkdConfig/Actions` and in ``ActionKinds/linkd``; a file in `Actions/` with a type that conforms and what
/// its spool entry keeps (``Spool/Entry/Kind``); and its entry in ``ActionSet``'s list.
protocol Action: Sendable {
    /// What apps.d says of the action, read by its own ``ActionSettings/decode(_:at:with:)``.
    associatedtype Settings: ActionSettings
    /// What the action's checks found, which its run uses: the program to start, the reset ready to run.
    associatedtype Plan: Sendable

    /// The keyword apps.d names it by, which is also its spool entries' kind (``Spool/Entry/Kind/keyword``).
    static var keyword: String { get }

    /// Whether an open of a link while the same link runs joins that run and gets its answer (a double click), rather
    /// than running it again. The repeat joins before the action's plan: the first run may have used up what the
    /// plan looks for (a PKCE verifier).
    static var joinsRepeats: Bool { get }

    /// Whether the replay after a crash hands this action's links over side by side (``LinkService/replayWidth`` at a
    /// time) rather than one after another in the order they were accepted.
    static var replaysSideBySide: Bool { get }

    /// What the action checks before anything is recorded — its backend, the link's expiry, a client that can answer.
    /// A failure is the answer (the pipeline logs it as refused), and the link stays usable.
    ///
    /// - Parameter client: the connection, when the client said it can answer a password question.
    func plan(
        _ link: ClaimedLink,
        client: (any LinkClient)?,
        context: ActionContext
    ) async -> Result<Plan, WireProtocol.Failure>

    /// What the pipeline records and holds for a run of `plan`.
    func admission(_ plan: Plan, link: ClaimedLink) -> Admission

    /// Acts on a link the pipeline has recorded, and says how it ended.
    func run(_ plan: Plan, _ run: LinkRun) async -> Outcome

    /// Called with every answer to a client's link once its plan is made, a repeat's and a refusal's included (not
    /// for a replay, which has no client).
    func answered(_ plan: Plan, link: ClaimedLink, with response: WireProtocol.Response) async

    /// Whether the action can take `link` now — its program is there, its D-Bus name is known, its app has subscribed —
    /// so that a link a browser could open instead goes there when it cannot. Asks nothing of the link's backend.
    func canTakeNow(_ link: ClaimedLink, context: ActionContext) async -> Bool

    /// What becomes of `entry`, which a daemon that stopped left in the spool; `link` is its link routed again with
    /// today's configuration, `nil` when it no longer routes. Either the action deals with the entry itself, or the
    /// pipeline runs it again (once: an entry replayed once already is dropped).
    func replay(_ entry: Spool.Entry, link: ClaimedLink?, context: ActionContext) async -> Replay<Plan>
}

extension Action {
    static var keyword: String { Settings.keyword }
    static var joinsRepeats: Bool { false }
    static var replaysSideBySide: Bool { false }
    func canTakeNow(_ link: ClaimedLink, context: ActionContext) async -> Bool { true }
    func answered(_ plan: Plan, link: ClaimedLink, with response: WireProtocol.Response) async {}
    /// The settings' type, for the list of the kinds apps.d may name.
    static var settingsType: any ActionSettings.Type { Settings.self }

    /// The settings of `link`, which the resolver gave this action because its claim names them.
    func settings(of link: ClaimedLink) -> Settings {
        guard let settings = link.claim.action.settings(as: Settings.self) else {
            preconditionFailure("a '\(Self.keyword)' link")
        }
        return settings
    }
}
