import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdWeb
import LinkdWire

/// What the daemon does with links: route them with the apps.d configuration, record them in the spool before they
/// are acknowledged, hand them to their action, and join a link that is opened again while its first run is in
/// flight.
actor LinkService {
    private(set) var resolver: LinkResolver
    /// What the actions may use of the daemon.
    nonisolated let context: ActionContext
    /// The keys that let an app's subscriber take its sessions, kept up to date with the configuration.
    nonisolated let subscriberKeys: SubscriberKeys
    /// Fetches the association files of the apps' web links at each reading of the configuration.
    nonisolated let associations: AssociationRefresh?
    nonisolated let actions: ActionSet
    /// The running programs against their limit, which a link whose run starts one takes a slot of.
    nonisolated let slots: ProgramSlots

    nonisolated var spool: Spool { context.spool }
    nonisolated var log: DaemonLog { context.log }
    nonisolated var activity: Activity { context.activity }
    nonisolated var shutdown: Shutdown { context.shutdown }
    /// Where apps' subscribers take their links and sessions (the `forward` action's queue).
    nonisolated var subscriptions: any AppSubscriptions { actions.subscriptions }
    /// The apps' windows, as a reset asks them and tells them its result.
    nonisolated var appWindow: AppWindow { actions.appWindow }
    /// Where a reset email's PKCE verifier is kept until its link comes back; `nil`: no PKCE reset.
    nonisolated let resetVerifiers: PKCEStore?
    /// Where a sign-in's PKCE verifier is kept until its link comes back; `nil`: no PKCE sign-in.
    nonisolated let signInVerifiers: PKCEStore?
    /// Where a Sign in with Apple's state and nonce secret is kept until Apple's answer comes back; `nil`: none.
    nonisolated let appleVerifiers: PKCEStore?

    init(
        resolver: LinkResolver,
        spool: Spool,
        log: DaemonLog,
        activity: Activity,
        shutdown: Shutdown,
        subscriberKeys: SubscriberKeys,
        supervisor: ProgramSupervisor,
        execTimeLimit: Duration,
        forwardTTL: Double,
        forwardQueueLimit: Int = Daemon.Limits().queuedForwardLinks,
        appWindow: AppWindow = AppWindow(timeLimit: .seconds(120)),
        pkceStore: PKCEStore?,
        signInStore: PKCEStore? = nil,
        appleStore: PKCEStore? = nil,
        dbus: DBusAction = DBusAction(),
        registrations: [ActionSet.Registration] = ActionSet.registered,
        associations: AssociationRefresh? = nil
    ) {
        self.associations = associations
        self.resolver = resolver
        resetVerifiers = pkceStore
        signInVerifiers = signInStore
        appleVerifiers = appleStore
        context = ActionContext(
            spool: spool,
            log: log,
            activity: activity,
            shutdown: shutdown,
            flights: Flights(activity: activity, log: log)
        )
        self.subscriberKeys = subscriberKeys
        slots = supervisor.slots
        actions = ActionSet(
            supervisor: supervisor,
            execTimeLimit: execTimeLimit,
            forwardTTL: forwardTTL,
            forwardQueueLimit: forwardQueueLimit,
            appWindow: appWindow,
            pkceStore: pkceStore,
            signInStore: signInStore,
            appleStore: appleStore,
            dbus: dbus,
            registrations: registrations
        )
    }

    /// Reads the configuration again and routes the next link with it; a configuration that has problems keeps its
    /// good apps (each problem is logged).
    func reload(_ loader: ConfigLoader) {
        let loaded = loader.load()
        for error in loaded.errors { log.warning("config: \(error)") }
        resolver = LinkResolver(apps: loaded.apps, fallbackToBuiltIns: false)
        for problem in subscriberKeys.prepare(for: loaded.apps) { log.warning(problem) }
        associations?.refresh(loaded.apps)
        let links = loaded.apps.map(\.links.count).reduce(0, +)
        log.info(
            "configuration read: \(loaded.apps.count) apps, \(links) links, \(loaded.errors.count) problems",
            event: .configurationRead
        )
    }

    /// Answers `{"op": "open"}`; `client`, when the client said it can, answers a reset's password question. A link in
    /// a mail scanner's wrapper (``LinkWrapper``) is taken as the link it wraps.
    ///
    /// A `web` link (clicked, decided the app's by `linkd open --web`) that its app cannot take now — no app claims it
    /// today, or its action cannot take it (``Action/canTakeNow(_:context:)``) — is answered `app_unavailable`, untouched,
    /// so that it opens in the browser; an emailed link of an app's backend, as clicked, is taken as any link (its reset
    /// or sign-in runs). The link is parsed and resolved once for both. `focus`, the click's, goes with the link to what
    /// it wakes.
    func open(
        _ text: String,
        client: (any LinkClient)? = nil,
        web: Bool = false,
        focus: WireProtocol.Focus? = nil
    ) async -> WireProtocol.Response {
        let link: LinkURL
        let resolution: Resolution
        let checksNow: Bool
        do throws(RouteError) {
            let parsed = try LinkURL(parsing: text)
            link = LinkWrapper.unwrap(parsed) ?? parsed
            checksNow = web && resolver.emailingApp(of: parsed) == nil
        } catch {
            return web ? .failed(.appUnavailable) : refused(error, link: nil)
        }
        do throws(RouteError) {
            resolution = try resolver.resolve(link)
        } catch {
            if checksNow { return .failed(.appUnavailable) }
            if case .unmatched = error, let answer = await openEmailed(link, client: client) { return answer }
            return refused(error, link: link)
        }
        guard let app = resolution.app, let claim = resolution.link else {
            preconditionFailure("a resolver without the built-in fallback always names the app")
        }
        let claimed = ClaimedLink(url: link.href, app: app, claim: claim, route: resolution.route, focus: focus)
        guard let action = actions.byKeyword[claim.action.keyword] else {
            if checksNow { return .failed(.appUnavailable) }
            log.error("linkd has no '\(claim.action.keyword)' action", [("LINKD_APP", app.app)])
            let message = "linkd has no '\(claim.action.keyword)' action; nothing was done with the link"
            return .failed(WireProtocol.Failure(kind: .unavailable, reason: .actionFailed, message: message))
        }
        if checksNow, await !action.canTakeNow(claimed, context: context) { return .failed(.appUnavailable) }
        return await run(action, claimed, client: client)
    }

    /// The answer to a link that is refused or unmatched. The client hears why in full; the log names the link by
    /// scheme and host with the reason and part, since the message may quote its path.
    private func refused(_ error: RouteError, link: LinkURL?) -> WireProtocol.Response {
        let reason = error.refusal.map { WireProtocol.Reason($0.reason) } ?? .noApp
        let part = error.refusal.map { " in the \($0.part.rawValue)" } ?? ""
        let name = link.map { " to " + WireProtocol.Failure.name(of: $0) } ?? ""
        log.info("refused a link\(name): \(reason)\(part)", [("LINKD_REASON", reason.rawValue)], event: .refused)
        return .failed(WireProtocol.Failure(error, link: link))
    }

    /// How many `exec` links a replay hands to their programs at once.
    static let replayWidth = 8

    /// The links a daemon that stopped left in the spool, oldest first, for ``replay(_:)``; an unreadable entry is
    /// removed, and so is one of a kind no action of this daemon takes. Read before the daemon serves, so that no link
    /// it accepts is taken for one left behind.
    func leftInSpool() -> [Spool.Entry] {
        let (read, unreadable) = spool.entries()
        let entries = read.filter { actions.byKeyword[$0.kind.keyword] != nil }
        let broken = unreadable + read.filter { actions.byKeyword[$0.kind.keyword] == nil }.map(\.id)
        for id in broken {
            let removed = spool.remove(id)
            log.warning("spool entry \(id.prefix(8)) is unreadable and was \(removed ? "removed" : "skipped")")
        }
        if !entries.isEmpty { log.info("replaying \(entries.count) links a daemon that stopped left in the spool") }
        return entries
    }

    /// Takes up `entries`, each by its action, while the daemon serves new links: `exec` links go to their programs
    /// ``replayWidth`` at a time, the others in the order they were accepted. It holds the daemon up until done, and
    /// starts nothing more once the daemon stops (what is left stays in the spool).
    func replay(_ entries: [Spool.Entry]) async {
        activity.hold()
        defer { activity.release() }
        let started = ContinuousClock.now
        defer {
            if !entries.isEmpty {
                log.info("the replay of \(entries.count) links ended after \(ContinuousClock.now - started)")
            }
        }
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for entry in entries where !shutdown.isStopping && !Task.isCancelled {
                let link = claimedLink(entry.url)
                guard let action = actions.byKeyword[entry.kind.keyword] else {
                    preconditionFailure("an entry of a kind no action takes is removed as it is read")
                }
                guard type(of: action).replaysSideBySide else {
                    await replay(action, entry, link: link)
                    continue
                }
                if running == Self.replayWidth {
                    await group.next()
                    running -= 1
                }
                running += 1
                group.addTask { await self.replay(action, entry, link: link) }
            }
        }
    }

    /// Whether the app that claims `url` can take it now (``Action/canTakeNow(_:context:)``); `false` when no app
    /// claims it.
    func canTakeNow(_ url: String) async -> Bool {
        guard let link = claimedLink(url), let action = actions.byKeyword[link.claim.action.keyword] else {
            return false
        }
        return await action.canTakeNow(link, context: context)
    }

    /// `url` routed with today's configuration; `nil` when it no longer routes to an app.
    private func claimedLink(_ url: String) -> ClaimedLink? {
        guard let parsed = try? LinkURL(parsing: url) else { return nil }
        let link = LinkWrapper.unwrap(parsed) ?? parsed
        guard let resolution = try? resolver.resolve(link),
            let app = resolution.app, let claim = resolution.link
        else { return nil }
        return ClaimedLink(url: link.href, app: app, claim: claim, route: resolution.route)
    }
}
