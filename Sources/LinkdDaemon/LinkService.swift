import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdSystem

/// What the daemon does with links: route them with the apps.d config, spool them before they are acknowledged,
/// run their action, and join a link that is opened again while its first run is in flight.
actor LinkService {
    private struct InFlight {
        var response: String?
        var waiters: [CheckedContinuation<String, Never>] = []
    }

    private struct Running {
        var child: ChildProcess
        var entryID: String
        var key: String
        var started: ContinuousClock.Instant
    }

    let resolver: LinkResolver
    let spool: Spool
    let log: DaemonLog
    private let execTimeLimit: Duration
    private var inFlight: [String: InFlight] = [:]
    private var running: [Int32: Running] = [:]
    /// `forward`: links waiting for their app to subscribe, by app, oldest first.
    var queued: [String: [Spool.Entry]] = [:]
    /// `forward`: connected subscribers, by app; the first gets the links.
    var subscribers: [String: [Subscriber]] = [:]
    /// `forward`: links handed to a subscriber and not yet written to its socket, by spool id.
    var handedOut: [String: (subscriber: UInt64, entry: Spool.Entry)] = [:]
    var nextSubscriberID: UInt64 = 0
    /// How long a `forward` link waits for its app (`LINKD_FORWARD_TTL`, seconds; default 10 minutes).
    let forwardTTL: Double
    /// The verifiers of resets requested with `linkd reset request`.
    let pkceStore: PKCEStore?

    init(resolver: LinkResolver, spool: Spool, log: DaemonLog, execTimeLimit: Duration) {
        self.resolver = resolver
        self.spool = spool
        self.log = log
        self.execTimeLimit = execTimeLimit
        forwardTTL = ProcessInfo.processInfo.environment["LINKD_FORWARD_TTL"].flatMap(Double.init) ?? 600
        pkceStore = PKCEStore.standard(environment: ProcessInfo.processInfo.environment)
    }

    /// Whether no link is in flight and no program runs.
    var isIdle: Bool { inFlight.isEmpty && running.isEmpty }

    /// Handles `{"op": "open"}` and returns the response line; `client`, when the client said it can, answers a
    /// reset's password question.
    func open(_ text: String, client: ClientConnection? = nil) async -> String {
        let link: LinkURL
        let resolution: Resolution
        do throws(RouteError) {
            link = try LinkURL(parsing: text)
            resolution = try resolver.resolve(link)
        } catch {
            log.info(
                "refused a link: \(error.description)",
                [("LINKD_REASON", error.refusal?.reason.rawValue ?? "no_app")]
            )
            if case .unmatched = error, let web = try? LinkURL(parsing: text), web.isSpecial {
                // linkd never owns web links: an https link is routed only for the hosts that apps claim.
                let message = "no app claims links to host '\(web.hostname)'"
                return WireProtocol.failure(WireProtocol.Failure(kind: "unmatched", reason: "no_app", message: message))
            }
            return WireProtocol.failure(Self.failure(error))
        }
        guard let app = resolution.app, let claim = resolution.link else {
            preconditionFailure("a resolver without the built-in fallback always names the app")
        }
        let route = resolution.route.id
        if case .forward = claim.action {
            return forward(link, app: app.app, route: resolution.route)
        }
        if case .dbus(let appID) = claim.action {
            return await openWithDBus(link, app: app.app, appID: appID, route: resolution.route)
        }
        if case .reset = claim.action {
            return await reset(link, app: app, claim: claim, route: resolution.route, client: client)
        }
        guard case .exec(let arguments) = claim.action else {
            return WireProtocol.failure(
                WireProtocol.Failure(
                    kind: "unavailable",
                    reason: "action_unavailable",
                    message:
                        "the '\(Self.name(of: claim.action))' action of '\(app.app)' is not available in this version"
                )
            )
        }
        let key = app.app + "\n" + link.href
        if let response = await join(key) { return response }
        let entry: Spool.Entry
        do {
            entry = try record(link.href)
        } catch {
            return error.response
        }
        startFlight(key)
        log.info("link \(entry.id.prefix(8)) accepted for \(app.app): \(route)", fields(entry, app.app, route))
        let (response, delivered) = await run(arguments, entry: entry, app: app.app, route: resolution.route, key: key)
        finish(key, response: response, delivered: delivered)
        return response
    }

    /// The answer of the run already in flight for `key`, once it has one; `nil` when none is in flight.
    func join(_ key: String) async -> String? {
        guard var joined = inFlight[key] else { return nil }
        if let response = joined.response { return response }
        return await withCheckedContinuation { continuation in
            joined.waiters.append(continuation)
            inFlight[key] = joined
        }
    }

    /// Marks `key` in flight, so that a repeat of the link joins this run.
    func startFlight(_ key: String) {
        inFlight[key] = InFlight()
    }

    private func run(
        _ arguments: [String],
        entry: Spool.Entry,
        app: String,
        route: RoutedLink,
        key: String
    ) async -> (response: String, delivered: Bool) {
        let payload = ExecAction.payload(id: entry.id, app: app, route: route, url: entry.url)
        do {
            let child = try await ExecAction.deliver(arguments, payload: payload, linkID: entry.id)
            running[child.pid] = Running(child: child, entryID: entry.id, key: key, started: .now)
            log.info(
                "link \(entry.id.prefix(8)) delivered to '\(arguments[0])' (pid \(child.pid))",
                fields(entry, app, route.id)
            )
            return (WireProtocol.success(route: route.id, app: app, state: "delivered"), true)
        } catch {
            spool.remove(entry.id)
            log.warning(
                "link \(entry.id.prefix(8)) not delivered to '\(arguments[0])': \(error)",
                fields(entry, app, route.id)
            )
            let failure = WireProtocol.Failure(
                kind: "unavailable",
                reason: "action_failed",
                message: "\(app): \(error)"
            )
            return (WireProtocol.failure(failure), false)
        }
    }

    /// Answers every request that joined `key`; a delivered link stays in flight until its program exits (so a
    /// repeat joins it), a failed one leaves at once.
    func finish(_ key: String, response: String, delivered: Bool) {
        guard var flight = inFlight.removeValue(forKey: key) else { return }
        for waiter in flight.waiters { waiter.resume(returning: response) }
        guard delivered, running.values.contains(where: { $0.key == key }) else { return }
        flight.waiters = []
        flight.response = response
        inFlight[key] = flight
    }

    /// Collects programs that exited, and kills those past the time limit; their links leave the spool. Queued
    /// `forward` links past their time to live leave too.
    func reap() {
        expireQueued()
        for (pid, run) in running {
            let status: Int32
            if let exited = run.child.exitStatusIfExited() {
                status = exited
            } else if ContinuousClock.now - run.started > execTimeLimit {
                run.child.kill()
                log.warning("link \(run.entryID.prefix(8)): the program ran past \(execTimeLimit) and was killed")
                continue
            } else {
                continue
            }
            running.removeValue(forKey: pid)
            spool.remove(run.entryID)
            inFlight.removeValue(forKey: run.key)
            let message = "link \(run.entryID.prefix(8)): the program (pid \(pid)) exited with status \(status)"
            if status == 0 { log.info(message) } else { log.warning(message) }
        }
    }

    /// Runs the actions of links a crashed daemon left in the spool, once: an entry already replayed is dropped.
    func replay() async {
        let (entries, broken) = spool.entries()
        for id in broken {
            log.warning("spool entry \(id.prefix(8)) is unreadable and was removed")
            spool.remove(id)
        }
        for var entry in entries {
            if entry.action == "reset" {
                await abandonReset(entry)
                continue
            }
            if let app = entry.app, entry.expires != nil {
                queued[app, default: []].append(entry)  // a forward link waits for its app again
                continue
            }
            guard entry.attempts < 2 else {
                log.warning("link \(entry.id.prefix(8)) was already replayed once and is dropped")
                spool.remove(entry.id)
                continue
            }
            entry.attempts += 1
            do throws(RouteError) {
                try? spool.write(entry)
                let link = try LinkURL(parsing: entry.url)
                let resolution = try resolver.resolve(link)
                if let app = resolution.app, case .dbus(let appID)? = resolution.link?.action {
                    log.notice(
                        "link \(entry.id.prefix(8)) replayed after a crash",
                        fields(entry, app.app, resolution.route.id)
                    )
                    _ = await deliverOverDBus(entry, app: app.app, appID: appID, route: resolution.route.id)
                    continue
                }
                guard let app = resolution.app, case .exec(let arguments)? = resolution.link?.action else {
                    spool.remove(entry.id)
                    continue
                }
                let key = app.app + "\n" + link.href
                startFlight(key)
                log.notice(
                    "link \(entry.id.prefix(8)) replayed after a crash",
                    fields(entry, app.app, resolution.route.id)
                )
                let (response, delivered) = await run(
                    arguments,
                    entry: entry,
                    app: app.app,
                    route: resolution.route,
                    key: key
                )
                finish(key, response: response, delivered: delivered)
            } catch {
                log.warning("link \(entry.id.prefix(8)) can no longer be routed (\(error)) and is dropped")
                spool.remove(entry.id)
            }
        }
    }

    func fields(_ entry: Spool.Entry, _ app: String, _ route: String) -> [(String, String)] {
        [("LINKD_LINK_ID", String(entry.id.prefix(8))), ("LINKD_APP", app), ("LINKD_ROUTE", route)]
    }

    private static func name(of action: LinkAction) -> String {
        switch action {
        case .reset: "reset"
        case .exec: "exec"
        case .dbus: "dbus"
        case .forward: "forward"
        }
    }

    static func failure(_ error: RouteError) -> WireProtocol.Failure {
        switch error {
        case .refused(let refusal):
            WireProtocol.Failure(
                kind: "invalid",
                reason: refusal.reason.rawValue,
                part: refusal.part.rawValue,
                message: refusal.message
            )
        case .unmatched(let explanation):
            WireProtocol.Failure(
                kind: "unmatched",
                reason: "no_app",
                message: "no app claims the link: \(explanation.description)"
            )
        case .invalidPattern:
            WireProtocol.Failure(kind: "invalid", reason: "bad_value", message: error.description)
        }
    }
}
