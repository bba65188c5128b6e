import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdWire

/// What the daemon does with links: route them with the apps.d configuration, record them in the spool before they
/// are acknowledged, hand them to their action, and join a link that is opened again while its first run is in
/// flight.
actor LinkService {
    /// One run of a link; repeats of the link wait for its answer.
    private struct Flight {
        var response: WireProtocol.Response?
        var waiters: [CheckedContinuation<WireProtocol.Response, Never>] = []
    }

    private(set) var resolver: LinkResolver
    nonisolated let spool: Spool
    nonisolated let log: DaemonLog
    nonisolated let activity: Activity
    nonisolated let shutdown: Shutdown
    /// The keys that let an app's subscriber take its sessions, kept up to date with the configuration.
    nonisolated let subscriberKeys: SubscriberKeys
    let exec: ExecAction
    let dbus: DBusAction
    let forward: ForwardAction
    let reset: ResetAction
    let signIn: SignInAction
    private var flights: [String: Flight] = [:]

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
        pkceStore: PKCEStore?,
        signInStore: PKCEStore? = nil,
        appleStore: PKCEStore? = nil
    ) {
        self.resolver = resolver
        self.spool = spool
        self.log = log
        self.activity = activity
        self.shutdown = shutdown
        self.subscriberKeys = subscriberKeys
        exec = ExecAction(timeLimit: execTimeLimit, supervisor: supervisor)
        dbus = DBusAction()
        forward = ForwardAction(timeToLive: forwardTTL, queueLimit: forwardQueueLimit)
        reset = ResetAction(pkceStore: pkceStore)
        signIn = SignInAction(pkceStore: signInStore, appleStore: appleStore, exec: exec, forward: forward)
    }

    /// Reads the configuration again and routes the next link with it; a configuration that has problems keeps its
    /// good apps (each problem is logged).
    func reload(_ loader: ConfigLoader) {
        let loaded = loader.load()
        for error in loaded.errors { log.warning("config: \(error)") }
        resolver = LinkResolver(apps: loaded.apps, fallbackToBuiltIns: false)
        for problem in subscriberKeys.prepare(for: loaded.apps) { log.warning(problem) }
        let links = loaded.apps.map(\.links.count).reduce(0, +)
        log.info("configuration read: \(loaded.apps.count) apps, \(links) links, \(loaded.errors.count) problems")
    }

    /// Answers `{"op": "open"}`; `client`, when the client said it can, answers a reset's password question.
    func open(_ text: String, client: (any LinkClient)? = nil) async -> WireProtocol.Response {
        let link: LinkURL
        let resolution: Resolution
        do throws(RouteError) {
            link = try LinkURL(parsing: text)
        } catch {
            return refused(error, link: nil)
        }
        do throws(RouteError) {
            resolution = try resolver.resolve(link)
        } catch {
            if case .unmatched = error, let answer = await openEmailed(link, client: client) { return answer }
            return refused(error, link: link)
        }
        guard let app = resolution.app, let claim = resolution.link else {
            preconditionFailure("a resolver without the built-in fallback always names the app")
        }
        let claimed = ClaimedLink(url: link.href, app: app, claim: claim, route: resolution.route)
        switch claim.action {
        case .exec: return await exec.open(claimed, client: client, service: self)
        case .dbus: return await dbus.open(claimed, client: client, service: self)
        case .forward: return await forward.open(claimed, client: client, service: self)
        case .reset: return await reset.open(claimed, client: client, service: self)
        case .signin: return await signIn.open(claimed, client: client, service: self)
        }
    }

    /// The answer to a link that is refused or unmatched. The client hears why in full; the log names the link by
    /// scheme and host with the reason and part, since the message may quote its path.
    private func refused(_ error: RouteError, link: LinkURL?) -> WireProtocol.Response {
        let reason = error.refusal.map { WireProtocol.Reason($0.reason) } ?? .noApp
        let part = error.refusal.map { " in the \($0.part.rawValue)" } ?? ""
        let name = link.map { " to " + WireProtocol.Failure.name(of: $0) } ?? ""
        log.info("refused a link\(name): \(reason)\(part)", [("LINKD_REASON", reason.rawValue)])
        return .failed(WireProtocol.Failure(error, link: link))
    }

    /// How many `exec` links a replay hands to their programs at once.
    static let replayWidth = 8

    /// The links a daemon that stopped left in the spool, oldest first, for ``replay(_:)``; an unreadable entry is
    /// removed. Read before the daemon serves, so that no link it accepts is taken for one left behind.
    func leftInSpool() -> [Spool.Entry] {
        let (entries, broken) = spool.entries()
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
                switch entry.kind {
                case .exec:
                    if running == Self.replayWidth {
                        await group.next()
                        running -= 1
                    }
                    running += 1
                    group.addTask { await self.exec.replay(entry, link: link, service: self) }
                case .dbus: await dbus.replay(entry, link: link, service: self)
                case .forward: await forward.replay(entry, link: link, service: self)
                case .reset: await reset.replay(entry, link: link, service: self)
                case .signin: await signIn.replay(entry, link: link, service: self)
                }
            }
        }
    }

    /// `url` routed with today's configuration; `nil` when it no longer routes to an app.
    private func claimedLink(_ url: String) -> ClaimedLink? {
        guard let link = try? LinkURL(parsing: url), let resolution = try? resolver.resolve(link),
            let app = resolution.app, let claim = resolution.link
        else { return nil }
        return ClaimedLink(url: link.href, app: app, claim: claim, route: resolution.route)
    }

    /// Records an accepted link in the spool before any action runs, so that a crash cannot lose it.
    ///
    /// - Throws: a ``WireProtocol/Failure`` (temporary: `spool_full`, `disk_full` or `spool_unwritable`) after
    ///   logging why, when the spool cannot take the link: the link is refused before it is acknowledged.
    nonisolated func record(_ url: String, kind: Spool.Entry.Kind) throws(WireProtocol.Failure) -> Spool.Entry {
        do throws(Spool.Failure) {
            return try spool.add(url: url, kind: kind)
        } catch {
            log.error("refused a link: \(error)", [("LINKD_REASON", error.reason.rawValue)])
            throw WireProtocol.Failure(kind: .temporary, reason: error.reason, message: error.description)
        }
    }

    /// `entry` with one more attempt written to the spool, for its replay; `nil` (the entry removed) when it was
    /// replayed once already: a link whose action crashed the daemon twice is not tried a third time.
    nonisolated func markReplayed(_ entry: Spool.Entry) -> Spool.Entry? {
        guard entry.attempts < 2 else {
            log.warning("link \(entry.shortID) was already replayed once and is dropped")
            spool.remove(entry.id)
            return nil
        }
        var again = entry
        again.attempts += 1
        try? spool.write(again)
        return again
    }

    /// The answer of the run in flight for `key`, once it has one; `nil` after marking `key` in flight when none is.
    /// Nothing suspends between the check and the mark, so two opens arriving together start one run.
    func joinOrStartFlight(_ key: String) async -> WireProtocol.Response? {
        guard var joined = flights[key] else {
            flights[key] = Flight()
            activity.hold()
            return nil
        }
        if let response = joined.response { return response }
        return await withCheckedContinuation { continuation in
            joined.waiters.append(continuation)
            flights[key] = joined
        }
    }

    /// Answers every open that joined `key`. With `keepingItOpen` the flight stays (a repeat gets `response`) until
    /// ``endFlight(_:)``, without keeping the daemon up; otherwise it ends now.
    func finishFlight(_ key: String, with response: WireProtocol.Response, keepingItOpen: Bool = false) {
        guard var flight = flights[key] else { return }
        let waiters = flight.waiters
        flight.waiters = []
        flight.response = response
        flights[key] = flight
        for waiter in waiters { waiter.resume(returning: response) }
        activity.release()  // answered: what stays open only joins repeats, and keeps the daemon up no longer
        if !keepingItOpen { flights.removeValue(forKey: key) }
    }

    /// Ends the flight of `key` (its program exited): the next open of the link is a new run.
    func endFlight(_ key: String) {
        guard let flight = flights.removeValue(forKey: key) else { return }
        precondition(flight.waiters.isEmpty && flight.response != nil, "a flight ends after its answer")
    }
}
