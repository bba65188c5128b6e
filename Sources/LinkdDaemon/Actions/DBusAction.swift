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
    typealias Opener = @Sendable (_ uris: [String], _ appID: String) throws(SystemError) -> Void

    /// `Open` on the session bus of the daemon's environment.
    static let sessionBus: Opener = { uris, appID throws(SystemError) in
        try SessionBus.openURIs(uris, appID: appID, timeout: timeout)
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
        guard let appID = link.claim.action.settings(as: Settings.self)?.appID else { return false }
        let nameIsKnown = nameIsKnown
        return await BlockingCall.run { nameIsKnown(appID) }
    }

    func open(_ link: ClaimedLink, client: (any LinkClient)?, context: ActionContext) async -> WireProtocol.Response {
        let entry: Spool.Entry
        do throws(WireProtocol.Failure) {
            entry = try context.record(link.url, kind: .dbus)
        } catch {
            return .failed(error)
        }
        return await deliver(entry, link: link, context: context)
    }

    func replay(_ entry: Spool.Entry, link: ClaimedLink?, context: ActionContext) async {
        guard let link, link.claim.action.settings(as: Settings.self) != nil else {
            context.log.warning("link \(entry.shortID) no longer routes to a D-Bus app and is dropped")
            context.spool.remove(entry.id)
            return
        }
        guard let again = context.markReplayed(entry) else { return }
        context.log.notice("link \(entry.shortID) replayed after a crash", link.logFields(entry))
        _ = await deliver(again, link: link, context: context)
    }

    /// Calls `Open` with a recorded link, then removes it from the spool: the app has it, or the failure is
    /// reported.
    private func deliver(_ entry: Spool.Entry, link: ClaimedLink, context: ActionContext) async -> WireProtocol.Response
    {
        guard let appID = link.claim.action.settings(as: Settings.self)?.appID else {
            preconditionFailure("a dbus link")
        }
        let url = entry.url
        let opener = opener
        // sd_bus_call blocks: it runs on a thread of the blocking pool, never on the cooperative pool.
        let result = await BlockingCall.run { () -> SystemError? in
            do throws(SystemError) {
                try opener([url], appID)
                return nil
            } catch {
                return error
            }
        }
        context.spool.remove(entry.id)
        if let result {
            // The bus error is the app's own text and may quote the link: the log leaves it out, the answer (for the
            // person's own terminal) redacts it.
            context.log.warning(
                "link \(entry.shortID) not delivered to \(appID) over D-Bus: \(DaemonLog.hiding(url, in: "\(result)"))",
                link.logFields(entry)
            )
            return .failed(
                WireProtocol.Failure(kind: .unavailable, reason: .actionFailed, message: "\(link.appName): \(result)")
            )
        }
        context.log.info("link \(entry.shortID) delivered to \(appID) over D-Bus", link.logFields(entry))
        return .accepted(route: link.route.id, app: link.appName, state: .delivered)
    }
}

extension Spool.Entry.Kind {
    /// A link the app's D-Bus service has not taken yet.
    package static let dbus = Self(keyword: DBusAction.keyword)
}
