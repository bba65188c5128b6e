import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdRouting

/// A connection subscribed to an app's `forward` links.
struct Subscriber: Sendable {
    let id: UInt64
    let continuation: AsyncStream<LinkService.Outgoing>.Continuation
}

extension LinkService {
    /// One link line for a subscriber.
    struct Outgoing: Sendable {
        let entryID: String
        let line: String
    }

    /// The `forward` action: to the app's subscriber when one is connected, else into the queue.
    func forward(_ link: LinkURL, app: String, route: RoutedLink) -> String {
        let entry: Spool.Entry
        do {
            entry = try record(link.href, app: app, expires: Date().timeIntervalSince1970 + forwardTTL)
        } catch {
            return error.response
        }
        if hand(entry, to: app) {
            log.info(
                "link \(entry.id.prefix(8)) forwarded to \(app)",
                [("LINKD_LINK_ID", String(entry.id.prefix(8))), ("LINKD_APP", app)]
            )
            return WireProtocol.success(route: route.id, app: app, state: "delivered")
        }
        queued[app, default: []].append(entry)
        log.info(
            "link \(entry.id.prefix(8)) queued until \(app) subscribes",
            [("LINKD_LINK_ID", String(entry.id.prefix(8))), ("LINKD_APP", app)]
        )
        return WireProtocol.success(route: route.id, app: app, state: "queued")
    }

    /// Gives `entry` to the app's first subscriber; `false` when none is connected.
    private func hand(_ entry: Spool.Entry, to app: String) -> Bool {
        guard let subscriber = subscribers[app]?.first, let line = payload(entry, app: app) else { return false }
        handedOut[entry.id] = (subscriber.id, entry)
        subscriber.continuation.yield(Outgoing(entryID: entry.id, line: line))
        return true
    }

    /// The line a subscriber gets: `{"id", "app", "route", "fields", "url"}`, as an exec program does.
    private func payload(_ entry: Spool.Entry, app: String) -> String? {
        guard let link = try? LinkURL(parsing: entry.url), let resolution = try? resolver.resolve(link) else {
            return nil
        }
        return String(
            decoding: ExecAction.payload(id: entry.id, app: app, route: resolution.route, url: entry.url),
            as: UTF8.self
        )
    }

    /// Registers a subscriber for `app` and hands it every queued link, oldest first.
    func subscribe(_ app: String) -> (id: UInt64, stream: AsyncStream<Outgoing>) {
        nextSubscriberID += 1
        let (stream, continuation) = AsyncStream.makeStream(of: Outgoing.self)
        let subscriber = Subscriber(id: nextSubscriberID, continuation: continuation)
        subscribers[app, default: []].append(subscriber)
        log.info("\(app) subscribed", [("LINKD_APP", app)])
        let waiting = queued.removeValue(forKey: app) ?? []
        for entry in waiting where !hand(entry, to: app) {
            queued[app, default: []].append(entry)
        }
        return (subscriber.id, stream)
    }

    /// The subscriber wrote the link to its socket: it leaves the spool, delivered once.
    func written(_ entryID: String) {
        guard handedOut.removeValue(forKey: entryID) != nil else { return }
        spool.remove(entryID)
    }

    /// The subscriber is gone: links handed to it but not written go back to the front of the queue.
    func unsubscribe(_ app: String, id: UInt64) {
        subscribers[app]?.removeAll { $0.id == id }
        if subscribers[app]?.isEmpty == true { subscribers.removeValue(forKey: app) }
        let returned = handedOut.filter { $0.value.subscriber == id }.map(\.value.entry).sorted {
            $0.accepted < $1.accepted
        }
        for entry in returned {
            handedOut.removeValue(forKey: entry.id)
            if !hand(entry, to: app) { queued[app, default: []].insert(entry, at: 0) }
        }
    }

    /// Drops queued links past their time to live.
    func expireQueued() {
        let now = Date().timeIntervalSince1970
        for (app, entries) in queued {
            let (expired, kept) = (
                entries.filter { ($0.expires ?? .infinity) <= now }, entries.filter { ($0.expires ?? .infinity) > now }
            )
            for entry in expired {
                log.warning("link \(entry.id.prefix(8)) expired before \(app) subscribed", [("LINKD_APP", app)])
                spool.remove(entry.id)
            }
            queued[app] = kept.isEmpty ? nil : kept
        }
    }
}
