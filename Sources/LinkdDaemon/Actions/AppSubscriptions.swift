/// Where an app's subscriber takes its links and sessions: the `forward` action's queue, which the socket's
/// subscribers and the apps' interface on the session bus share (``ActionSet/subscriptions``).
protocol AppSubscriptions: Sendable {
    /// Registers a subscriber for `app` and hands it every queued link it may take, oldest first (a session only
    /// with `receivesSessions`: it proved it is the app).
    func subscribe(
        _ app: String,
        receivesSessions: Bool,
        context: ActionContext
    ) async -> (id: UInt64, stream: AsyncStream<SubscriberLine>)

    /// The subscriber wrote the link out: it leaves the spool, delivered once.
    func written(_ entryID: String, context: ActionContext) async

    /// A subscriber that sends receipts has `entryID`: it leaves the spool, delivered once. `false` when it was not
    /// handed to one of `subscribers`, or is received already.
    func received(_ entryID: String, bySubscriberIn subscribers: [UInt64], context: ActionContext) async -> Bool

    /// The subscriber is gone: links handed to it but not written go back to the front of the queue.
    func unsubscribe(_ app: String, id: UInt64, context: ActionContext) async
}

/// One link or session for a subscriber, as its line on the wire.
struct SubscriberLine: Sendable {
    let entryID: String
    let line: String
    /// The click's focus, as platform data (`activation-token`, `desktop-startup-id`); empty for a link that came
    /// with none, or was replayed.
    var platform: [String: String] = [:]
}
