import LinkdConfig
import LinkdFormats
import LinkdSystem
import LinkdWire

/// The `dbus` action: `org.freedesktop.Application.Open` on the app id, which D-Bus activates when it is not
/// running. The link stays in the spool until the app has answered.
struct DBusAction: Action {
    typealias Settings = DBusSettings

    /// How long the app may take to answer `Open`, D-Bus activation included.
    static let timeout: Duration = .seconds(25)

    /// Calls `Open` with the links on the app id; a blocking call (see ``SessionBus/openURIs(_:appID:timeout:)``).
    typealias Opener =
        @Sendable (_ uris: [String], _ appID: String, _ platformData: [String: String]) throws(SystemError) -> Void

    /// `Open` on the session bus of the daemon's environment.
    static let sessionBus: Opener = { uris, appID, platformData throws(SystemError) in
        try SessionBus.openURIs(uris, appID: appID, platformData: platformData, timeout: timeout)
    }

    /// Whether a name is known on the bus (owned, or activatable); a blocking call.
    typealias NameCheck = @Sendable (_ appID: String) -> Bool

    /// Asks the session bus of the daemon's environment.
    static let sessionBusNames: NameCheck = { appID in SessionBus.nameIsKnown(appID, timeout: .seconds(2)) }

    let opener: Opener
    let nameIsKnown: NameCheck

    init(
        opener: @escaping Opener = DBusAction.sessionBus,
        nameIsKnown: @escaping NameCheck = DBusAction.sessionBusNames
    ) {
        self.opener = opener
        self.nameIsKnown = nameIsKnown
    }

    /// Whether the app id is known on the bus: running, or startable by D-Bus.
    func canTakeNow(_ link: ClaimedLink, context: ActionContext) async -> Bool {
        let (appID, nameIsKnown) = (settings(of: link).appID, nameIsKnown)
        return await BlockingCall.run { nameIsKnown(appID) }
    }

    /// The app id.
    func plan(
        _ link: ClaimedLink,
        client: (any LinkClient)?,
        context: ActionContext
    ) async -> Result<String, WireProtocol.Failure> {
        .success(settings(of: link).appID)
    }

    func admission(_ appID: String, link: ClaimedLink) -> Admission { Admission(kind: .dbus) }

    func replay(_ entry: Spool.Entry, link: ClaimedLink?, context: ActionContext) async -> Replay<String> {
        guard let link, let appID = link.claim.action.settings(as: Settings.self)?.appID else {
            context.log.warning("link \(entry.shortID) no longer routes to a D-Bus app and is dropped")
            context.spool.remove(entry.id)
            return .handled
        }
        return .again(appID, link)
    }

    /// Calls `Open` with the recorded link: the app has it, or the failure is reported.
    func run(_ appID: String, _ run: LinkRun) async -> Outcome {
        let (link, entry, url, opener) = (run.link, run.entry, run.entry.url, opener)
        let platformData = link.focus?.platformData ?? [:]
        // sd_bus_call blocks: it runs on a thread of the blocking pool, never on the cooperative pool.
        let result = await BlockingCall.run { () -> SystemError? in
            do throws(SystemError) {
                try opener([url], appID, platformData)
                return nil
            } catch {
                return error
            }
        }
        if let result {
            // The bus error is the app's own text and may quote the link: the log leaves it out, the answer (for the
            // person's own terminal) redacts it.
            return .failed(
                WireProtocol.Failure(kind: .unavailable, reason: .actionFailed, message: "\(link.appName): \(result)"),
                note: .warning(
                    "link \(entry.shortID) not delivered to \(appID) over D-Bus: \(DaemonLog.hiding(url, in: "\(result)"))"
                )
            )
        }
        return Outcome(
            .accepted(route: link.route.id, app: link.appName, state: .delivered),
            note: .info("link \(entry.shortID) delivered to \(appID) over D-Bus")
        )
    }
}

extension Spool.Entry.Kind {
    /// A link the app's D-Bus service has not taken yet.
    package static let dbus = Self(keyword: DBusAction.keyword)
}
