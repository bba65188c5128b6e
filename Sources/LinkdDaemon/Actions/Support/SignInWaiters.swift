import LinkdFormats
import LinkdWire

/// The `linkd login --provider` commands that wait for their sign-in to come back, one per app: each holds a
/// connection (`{"op": "await_signin", "app": …}`) and is answered with the outcome of the sign-in that comes back.
///
/// A sign-in started in the browser is confirmed before it is kept: its address showed in a browser's command line,
/// so another local user could complete it with their own account and mail the person the callback. The waiting
/// `linkd login` holds the person's terminal, so it asks ("Signed in to APP as EMAIL — keep?"); when none waits that
/// can ask, the sign-in is confirmed as one linkd did not start.
actor SignInWaiters {
    /// How long a `linkd login` waits: the life of its stored verifier, and a little more.
    static let limit: Duration = .seconds(630)
    /// How often a wait checks that its `linkd login` is still connected.
    static let presenceCheck: Duration = .seconds(1)

    private struct Waiter: Sendable {
        let id: UInt64
        let client: any LinkClient
        let confirms: Bool
    }

    private var waiters: [String: Waiter] = [:]
    private var continuations: [UInt64: CheckedContinuation<WireProtocol.Response, Never>] = [:]
    /// Outcomes that came before their wait was ready for them.
    private var early: [UInt64: WireProtocol.Response] = [:]
    private var nextID: UInt64 = 0

    /// Waits, for `client`, until a sign-in to `app` started in the browser has come back (its response), the client
    /// has gone, or ``limit`` passed; a newer wait for the same app ends this one. With `confirms`, the client is
    /// asked to confirm that sign-in. `registered` runs once the wait is in place (it acknowledges the request).
    func wait(
        for app: String,
        client: any LinkClient,
        confirms: Bool,
        registered: @Sendable () async -> Void
    ) async -> WireProtocol.Response {
        nextID += 1
        let id = nextID
        if let older = waiters[app] {
            end(older.id, with: Self.failure("another 'linkd login' for \(app) took over this sign-in"))
        }
        waiters[app] = Waiter(id: id, client: client, confirms: confirms)
        await registered()
        let deadline = ContinuousClock.now + Self.limit
        return await withTaskGroup(of: WireProtocol.Response?.self) { group in
            group.addTask { await self.outcome(of: id) }
            group.addTask {
                await self.watch(id, app: app, client: client, until: deadline)
                return nil
            }
            var response: WireProtocol.Response?
            for await result in group where result != nil {
                response = result
                group.cancelAll()
            }
            return response ?? Self.failure("the sign-in to \(app) was not waited for")
        }
    }

    /// Whether a `linkd login` that can ask the person waits for a sign-in to `app`.
    func hasConfirmer(for app: String) -> Bool { waiters[app]?.confirms == true }

    /// Asks the waiting `linkd login` of `app` to confirm `prompt`; `false` when none can, or the person said no.
    func confirm(_ app: String, prompt: String) async -> Bool {
        guard let waiter = waiters[app], waiter.confirms else { return false }
        return await waiter.client.confirm(prompt: prompt)
    }

    /// Answers the wait for `app`, if one waits, with the outcome of its sign-in.
    func finish(_ app: String, with response: WireProtocol.Response) {
        guard let waiter = waiters[app] else { return }
        end(waiter.id, with: response)
    }

    private func outcome(of id: UInt64) async -> WireProtocol.Response {
        await withCheckedContinuation { continuation in
            if let response = early.removeValue(forKey: id) {
                continuation.resume(returning: response)
            } else {
                continuations[id] = continuation
            }
        }
    }

    /// Ends the wait `id` when its client has gone or its time is up; returns at once when cancelled.
    private func watch(_ id: UInt64, app: String, client: any LinkClient, until deadline: ContinuousClock.Instant) async
    {
        // A poll: a connection that only listens gives no event when its peer goes, short of reading from it, which
        // the confirmation question does in between.
        while !Task.isCancelled {
            if await !client.isWaiting {
                return end(id, with: Self.failure("'linkd login' for \(app) stopped waiting"))
            }
            if ContinuousClock.now >= deadline {
                return end(
                    id,
                    with: Self.failure("no sign-in to \(app) came back within 10 minutes; run 'linkd login' again")
                )
            }
            try? await Task.sleep(for: Self.presenceCheck)
        }
    }

    private func end(_ id: UInt64, with response: WireProtocol.Response) {
        if let (app, _) = waiters.first(where: { $0.value.id == id }) { waiters.removeValue(forKey: app) }
        if let continuation = continuations.removeValue(forKey: id) {
            continuation.resume(returning: response)
        } else {
            early[id] = response
        }
    }

    private static func failure(_ message: String) -> WireProtocol.Response {
        .failed(WireProtocol.Failure(kind: .temporary, reason: .notWaitedFor, message: message))
    }
}
