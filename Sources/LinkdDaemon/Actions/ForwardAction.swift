import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdWire

/// The `forward` action: the link goes to the app's subscriber (a connection that sent `{"op": "subscribe"}`), or
/// waits in a queue, oldest first, until one subscribes or its time to live passes.
actor ForwardAction: Action, ActionChores, AppSubscriptions {
    typealias Settings = ForwardSettings

    private struct Subscriber: Sendable {
        let id: UInt64
        let continuation: AsyncStream<SubscriberLine>.Continuation
        /// Whether it sent the app's subscriber key (``SubscriberKeys``), so that it may take sessions.
        let receivesSessions: Bool
    }

    /// How long a link waits for its app (`LINKD_FORWARD_TTL`, seconds).
    let timeToLive: Double
    /// The most links that may wait for one app: queued, or handed to a subscriber that has not taken them yet.
    let queueLimit: Int
    /// Links waiting for their app to subscribe, by app, oldest first.
    private var queued: [String: [QueuedLink]] = [:]
    /// Connected subscribers, by app; the first gets the links.
    private var subscribers: [String: [Subscriber]] = [:]
    /// Links handed to a subscriber and not yet written to its socket, by spool id.
    private var handedOut: [String: (subscriber: UInt64, app: String, link: QueuedLink)] = [:]
    private var nextSubscriberID: UInt64 = 0

    /// Work done beside the requests, in ``run(context:)``: the wake-up at a queued session's time to live, and the
    /// sign-out of a session dropped unwritten.
    private enum Chore: Sendable {
        case expire(after: Duration)
        case signOut(@Sendable () async -> Void)
    }

    private let chores: AsyncStream<Chore>
    private let choresInput: AsyncStream<Chore>.Continuation

    /// A queued link and the line its subscriber gets.
    private struct QueuedLink: Sendable {
        let entry: Spool.Entry
        let line: String
        let expires: Double
        /// A session (`signin` with `"forward"`): it waits in memory only, so it keeps the daemon up until it has
        /// been written or has expired (an idle exit would lose it).
        var holdsDaemon = false
        /// What a session dropped unwritten still needs done (its sign-out); the daemon stays up until it is.
        var onExpiry: (@Sendable () async -> Void)? = nil
        /// The click's focus: in memory only, handed out with the link once.
        var focus: WireProtocol.Focus? = nil
    }

    /// What starts an app whose links say `"start": "desktop"` when no one is subscribed as it.
    let starter: AppStarter?

    init(timeToLive: Double, queueLimit: Int = Daemon.Limits().queuedForwardLinks, starter: AppStarter? = nil) {
        self.timeToLive = timeToLive
        self.queueLimit = queueLimit
        self.starter = starter
        (chores, choresInput) = AsyncStream.makeStream(of: Chore.self)
    }

    nonisolated var choresName: String { "forward" }

    /// Does the action's chores (a queued session's expiry, a dropped session's sign-out) until cancelled. The daemon
    /// runs it beside its server, and cancels it only after its stop has drained: a sign-out still holds the daemon
    /// up (``Activity``), so the stop waits for it.
    func runChores(context: ActionContext) async {
        await withDiscardingTaskGroup { group in
            for await chore in chores {
                switch chore {
                case .expire(let delay):
                    group.addTask {
                        try? await Task.sleep(for: delay)
                        await self.expireQueued(context)
                    }
                case .signOut(let work):
                    group.addTask {
                        await work()
                        context.activity.release()
                    }
                }
            }
        }
    }

    /// The link's time to live, when one more link may wait for its app.
    func plan(
        _ link: ClaimedLink,
        client: (any LinkClient)?,
        context: ActionContext
    ) async -> Result<Double, WireProtocol.Failure> {
        guard hasRoom(for: link.appName, context: context) else {
            context.log.warning(
                "a link for \(link.appName) was refused: \(queueLimit) links are waiting for it",
                [("LINKD_APP", link.appName), ("LINKD_ROUTE", link.route.id)]
            )
            return .failure(.forwardQueueFull(app: link.appName, limit: queueLimit))
        }
        return .success(Date().timeIntervalSince1970 + timeToLive)
    }

    nonisolated func admission(_ expires: Double, link: ClaimedLink) -> Admission {
        Admission(kind: .forward(app: link.appName, expires: expires))
    }

    /// Hands the recorded link to the app's subscriber, or queues it until one subscribes.
    func run(_ expires: Double, _ run: LinkRun) async -> Outcome {
        let (link, entry) = (run.link, run.entry)
        // Counted again: another link may have taken the last place since the plan; nothing suspends from here.
        guard waiting(for: link.appName) < queueLimit else {
            let note = "link \(entry.shortID) was refused: \(queueLimit) links are waiting for \(link.appName)"
            return .failed(.forwardQueueFull(app: link.appName, limit: queueLimit), note: .warning(note))
        }
        let queuedLink = QueuedLink(entry: entry, line: Self.line(entry, link), expires: expires, focus: link.focus)
        if hand(queuedLink, to: link.appName) {
            return Outcome(
                .accepted(route: link.route.id, app: link.appName, state: .delivered),
                .handedOn,
                note: .info("link \(entry.shortID) forwarded to \(link.appName)")
            )
        }
        queued[link.appName, default: []].append(queuedLink)
        // At its time to live the link leaves the queue and the spool, whether or not anything else happens.
        choresInput.yield(.expire(after: .seconds(timeToLive + 0.1)))
        let starting = startApp(of: link, context: run.context)
        return Outcome(
            .accepted(route: link.route.id, app: link.appName, state: .queued),
            .handedOn,
            note: .info(
                "link \(entry.shortID) queued until \(link.appName) subscribes" + (starting ? "; starting it" : "")
            )
        )
    }

    /// A queued link goes to its app's subscriber, or waits for one again; one that no longer routes, or whose time
    /// to live has passed, is dropped. Only the entry itself is checked: a replay of thousands stays linear.
    func replay(_ entry: Spool.Entry, link: ClaimedLink?, context: ActionContext) async -> Replay<Double> {
        guard let (app, expires) = entry.kind.forwarded, let link, link.appName == app else {
            context.log.warning("link \(entry.shortID) no longer routes to its app and is dropped")
            context.spool.remove(entry.id)
            return .handled
        }
        guard expires > Date().timeIntervalSince1970 else {
            context.log.warning("link \(entry.shortID) expired before \(app) subscribed", [("LINKD_APP", app)])
            context.spool.remove(entry.id)
            return .handled
        }
        let queuedLink = QueuedLink(entry: entry, line: Self.line(entry, link), expires: expires)
        if !hand(queuedLink, to: app) {
            queued[app, default: []].append(queuedLink)
            _ = startApp(of: link, context: context)
        }
        return .handled
    }

    /// Starts the app of `link` when its link says `"start": "desktop"` (once for the links that come while it starts),
    /// beside the answer: the link waits for the app's subscription either way.
    ///
    /// - Returns: whether a start was asked for.
    private func startApp(of link: ClaimedLink, context: ActionContext) -> Bool {
        guard let starter, link.claim.action.settings(as: ForwardSettings.self)?.start == .desktop else { return false }
        let app = link.appName
        context.activity.hold()
        Task {
            defer { context.activity.release() }
            switch await starter.start(app, focus: link.focus) {
            case .success(.underWay): break
            case .success(let start):
                context.log.info("started \(app) for its links (\(start))", [("LINKD_APP", app)], event: .appStarted)
            case .failure(let failure):
                context.log.warning("\(app) cannot be started for its links: \(failure)", [("LINKD_APP", app)])
            }
        }
        return true
    }

    /// The line a subscriber gets: `{"id", "app", "route", "fields", "url"}`, as an exec program does.
    private static func line(_ entry: Spool.Entry, _ link: ClaimedLink) -> String {
        String(
            decoding: LinkPayload.of(id: entry.id, app: link.appName, route: link.route, url: entry.url),
            as: UTF8.self
        )
    }

    /// The links waiting for `app`: queued, or handed to a subscriber and not yet written to it.
    private func waiting(for app: String) -> Int {
        let handed = handedOut.values.count { $0.app == app }
        return (queued[app]?.count ?? 0) + handed
    }

    /// Whether one more link or session may wait for `app` (fewer than the queue limit wait).
    /// Whether the app has subscribed: a link for it would otherwise wait in the queue.
    func canTakeNow(_ link: ClaimedLink, context: ActionContext) async -> Bool {
        subscribers[link.appName]?.isEmpty == false
            || (starter != nil && link.claim.action.settings(as: ForwardSettings.self)?.start == .desktop)
    }

    func hasRoom(for app: String, context: ActionContext) -> Bool {
        expireQueued(context)
        return waiting(for: app) < queueLimit
    }

    /// Hands a signed-in session's `line` (the `signin` action's JSON) to `app`'s subscriber, or queues it, in this
    /// daemon's memory only, until one subscribes or the time to live passes; `entry` (the link's spool entry) leaves
    /// the spool once the line has been written. While it waits it keeps the daemon up; `onExpiry` runs when the time
    /// to live passes first, and the daemon stays up until it has returned.
    ///
    /// - Returns: ``WireProtocol/State/delivered`` when a subscriber took it, else
    ///   ``WireProtocol/State/queued``.
    func session(
        _ line: String,
        entry: Spool.Entry,
        app: String,
        focus: WireProtocol.Focus? = nil,
        context: ActionContext,
        onExpiry: @escaping @Sendable () async -> Void
    ) -> WireProtocol.State {
        context.activity.hold()
        let link = QueuedLink(
            entry: entry,
            line: line,
            expires: Date().timeIntervalSince1970 + timeToLive,
            holdsDaemon: true,
            onExpiry: onExpiry,
            focus: focus
        )
        if hand(link, to: app) { return .delivered }
        queued[app, default: []].append(link)
        choresInput.yield(.expire(after: .seconds(timeToLive + 0.1)))
        return .queued
    }

    /// Gives `link` to the app's first subscriber that may take it (a session: one that sent the app's key); `false`
    /// when none is connected.
    private func hand(_ link: QueuedLink, to app: String) -> Bool {
        let isSession = link.holdsDaemon
        guard let subscriber = subscribers[app]?.first(where: { !isSession || $0.receivesSessions }) else {
            return false
        }
        handedOut[link.entry.id] = (subscriber.id, app, link)
        subscriber.continuation.yield(
            SubscriberLine(entryID: link.entry.id, line: link.line, platform: link.focus?.platformData ?? [:])
        )
        return true
    }

    /// Registers a subscriber for `app` and hands it every queued link it may take, oldest first (a session only
    /// with `receivesSessions`: it sent the app's subscriber key).
    func subscribe(
        _ app: String,
        receivesSessions: Bool,
        context: ActionContext
    ) -> (id: UInt64, stream: AsyncStream<SubscriberLine>) {
        expireQueued(context)
        starter?.subscribed(app)
        nextSubscriberID += 1
        let (stream, continuation) = AsyncStream.makeStream(of: SubscriberLine.self)
        subscribers[app, default: []].append(
            Subscriber(id: nextSubscriberID, continuation: continuation, receivesSessions: receivesSessions)
        )
        context.log.info(
            "\(app) subscribed" + (receivesSessions ? " with its key" : ""),
            [("LINKD_APP", app)]
        )
        for link in queued.removeValue(forKey: app) ?? [] where !hand(link, to: app) {
            queued[app, default: []].append(link)
        }
        return (nextSubscriberID, stream)
    }

    /// The subscriber wrote the link to its socket: it leaves the spool, delivered once.
    func written(_ entryID: String, context: ActionContext) {
        guard let handed = handedOut.removeValue(forKey: entryID) else { return }
        context.spool.remove(entryID)
        context.log.info(
            "link \(handed.link.entry.shortID) taken by \(handed.app)'s subscriber",
            [("LINKD_LINK_ID", String(handed.link.entry.shortID)), ("LINKD_APP", handed.app)],
            event: .taken
        )
        if handed.link.holdsDaemon { context.activity.release() }
    }

    /// A subscriber that sends receipts has `entryID`: it leaves the spool, delivered once. `false` when it was not
    /// handed to one of `subscribers`, or is received already.
    func received(_ entryID: String, bySubscriberIn subscribers: [UInt64], context: ActionContext) -> Bool {
        guard let handed = handedOut[entryID], subscribers.contains(handed.subscriber) else { return false }
        written(entryID, context: context)
        return true
    }

    /// The subscriber is gone: links handed to it but not written go back to the front of the queue.
    func unsubscribe(_ app: String, id: UInt64, context: ActionContext) {
        context.log.info("\(app)'s subscriber went away", [("LINKD_APP", app)])
        subscribers[app]?.removeAll { $0.id == id }
        if subscribers[app]?.isEmpty == true { subscribers.removeValue(forKey: app) }
        let returned = handedOut.values.filter { $0.subscriber == id }.map(\.link).sorted {
            $0.entry.accepted < $1.entry.accepted
        }
        var back: [QueuedLink] = []
        for link in returned {
            handedOut.removeValue(forKey: link.entry.id)
            if !hand(link, to: app) { back.append(link) }
        }
        if !back.isEmpty { queued[app] = back + (queued[app] ?? []) }
    }

    /// Drops queued links past their time to live; a session's `onExpiry` runs before it lets the daemon go.
    func expireQueued(_ context: ActionContext) {
        let now = Date().timeIntervalSince1970
        for (app, links) in queued {
            let kept = links.filter { $0.expires > now }
            for link in links where link.expires <= now {
                context.log.warning("link \(link.entry.shortID) expired before \(app) subscribed", [("LINKD_APP", app)])
                drop(link, context)
            }
            queued[app] = kept.isEmpty ? nil : kept
        }
    }

    /// The daemon is stopping: the sessions waiting in its memory would be lost with it, so each is dropped now, its
    /// `onExpiry` run (the daemon's stop waits for it), and its link's entry removed, so that no next daemon tells the
    /// person a second time. Queued links stay in the spool for the next daemon.
    func stopping(context: ActionContext) {
        for (app, links) in queued {
            let kept = links.filter { !$0.holdsDaemon }
            for link in links where link.holdsDaemon {
                context.log.warning(
                    "link \(link.entry.shortID): the daemon is stopping before \(app) subscribed",
                    [("LINKD_APP", app)]
                )
                drop(link, context)
            }
            queued[app] = kept.isEmpty ? nil : kept
        }
    }

    /// Removes a dropped link's spool entry; a session lets the daemon go once its `onExpiry` has returned.
    private func drop(_ link: QueuedLink, _ context: ActionContext) {
        context.spool.remove(link.entry.id)
        guard link.holdsDaemon else { return }
        if let onExpiry = link.onExpiry {
            choresInput.yield(.signOut(onExpiry))
        } else {
            context.activity.release()
        }
    }
}

extension Spool.Entry.Kind {
    /// A link queued for `app`'s subscriber until `expires` (seconds since 1970).
    package static func forward(app: String, expires: Double) -> Self {
        Self(keyword: ForwardAction.keyword, memory: ["app": .string(app), "expires": .number(expires)])
    }

    /// The app a `forward` link waits for, and until when.
    package var forwarded: (app: String, expires: Double)? {
        guard keyword == ForwardAction.keyword, let app = memory["app"]?.string, let expires = memory["expires"]?.number
        else { return nil }
        return (app, expires)
    }
}
