import LinkdFormats
import LinkdSystem
import LinkdWire

extension AppInterface {
    /// Answers a method call of the interface.
    func answer(_ call: BusCall) async {
        let activity = service.activity
        activity.hold()
        defer { activity.release() }
        guard call.interface == Self.interface else {
            call.reply(.failure(BusError(name: "org.freedesktop.DBus.Error.UnknownInterface", message: call.interface)))
            return
        }
        switch (call.member, call.arguments) {
        case ("Subscribe", let arguments) where arguments.map(\.signature) == ["s", "s"]:
            await subscribe(call, app: arguments[0].string ?? "", key: arguments[1].string ?? "", receipts: false)
        case ("SubscribeWithReceipts", let arguments) where arguments.map(\.signature) == ["s", "s"]:
            await subscribe(call, app: arguments[0].string ?? "", key: arguments[1].string ?? "", receipts: true)
        case ("Received", let arguments) where arguments.map(\.signature) == ["s"]:
            call.reply(await received(call, id: arguments[0].string ?? ""))
        case ("Unsubscribe", let arguments) where arguments.isEmpty:
            await unsubscribeAll(call.sender)
            call.reply(.success([]))
        case ("Subscribers", let arguments) where arguments.isEmpty:
            call.reply(.success([.dictionary(subscribers())]))
        case ("AnswerQuestions", let arguments) where arguments.map(\.signature) == ["s", "as"]:
            call.reply(answerQuestions(call, app: arguments[0].string ?? "", questions: arguments[1].strings ?? []))
        case ("Answer", let arguments) where arguments.map(\.signature) == ["s", "s"]:
            call.reply(reply(call, question: arguments[0].string ?? "", .given(Secret(arguments[1].string ?? ""))))
        case ("Decline", let arguments) where arguments.map(\.signature) == ["s"]:
            call.reply(reply(call, question: arguments[0].string ?? "", .declined))
        case ("RequestReset", let arguments) where arguments.map(\.signature) == ["s", "s"]:
            call.reply(await requestReset(call, app: arguments[0].string ?? "", email: arguments[1].string ?? ""))
        case ("SignIn", let arguments) where arguments.map(\.signature) == ["s", "s"]:
            call.reply(await signIn(call, app: arguments[0].string ?? "", provider: arguments[1].string ?? ""))
        case ("SignInWithEmail", let arguments) where arguments.map(\.signature) == ["s", "s"]:
            call.reply(await signInWithEmail(call, app: arguments[0].string ?? "", email: arguments[1].string ?? ""))
        case ("Subscribe", _), ("SubscribeWithReceipts", _), ("Received", _), ("Unsubscribe", _),
            ("AnswerQuestions", _), ("Answer", _), ("Decline", _), ("RequestReset", _), ("Subscribers", _),
            ("SignIn", _), ("SignInWithEmail", _):
            call.reply(.failure(.invalidArguments("\(call.member) takes other arguments: see its introspection")))
        default:
            call.reply(.failure(BusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: call.member)))
        }
    }

    /// Makes the caller `app`'s subscriber once it has proved it is `app`, and answers it; a second Subscribe of the
    /// same connection as the same app changes nothing. With `receipts`, a link or session sent stays the app's until
    /// the connection says `Received`: one it did not, when it leaves, goes to the app's next subscriber.
    private func subscribe(_ call: BusCall, app: String, key: String, receipts: Bool) async {
        let proof: AppProof
        switch await AppProof.of(call, app: app, key: key, service: service) {
        case .success(let proven): proof = proven
        case .failure(let refusal):
            service.log.warning(
                "a subscription to \(app) on the session bus was refused: \(refusal.message)",
                [("LINKD_APP", app)]
            )
            call.reply(.failure(refusal))
            return
        }
        guard !isSubscribed(call, as: app) else {
            call.reply(.success([]))
            return
        }
        let context = service.context
        let (id, stream) = await service.subscriptions.subscribe(app, receivesSessions: true, context: context)
        service.activity.hold()  // a subscribed app keeps the daemon up, as a subscribed connection does
        let sender = call.sender
        // Recorded before it is answered (its next call finds it subscribed), and answered before the first link is
        // handed to the connection's thread, which sends in order.
        let (answered, answer) = AsyncStream.makeStream(of: Void.self)
        let sending = Task { [self] in
            for await _ in answered {}
            for await outgoing in stream {
                guard let (member, arguments) = Delivery.signal(for: outgoing.line, platform: outgoing.platform),
                    await send(member, to: sender, arguments)
                else {
                    // Not sent: the connection is gone, or the bus is; what it had not taken goes back to the queue.
                    Task { await self.unsubscribeAll(sender) }
                    return
                }
                if !receipts { await service.subscriptions.written(outgoing.entryID, context: context) }
            }
        }
        subscriptions.withLock {
            $0[sender, default: []].append(
                Subscription(app: app, proof: proof, id: id, receipts: receipts, sending: sending)
            )
        }
        service.appWindow.listen(app, connection: sender)
        call.reply(.success([]))
        answer.finish()
        service.log.info(
            "\(app) subscribed on the session bus (\(proof.description))",
            [("LINKD_APP", app), ("LINKD_PROOF", proof.field)],
            event: .subscribed
        )
        // A caller that left before it was recorded is one whose departure was heard too early: let it go now.
        if await !isConnected(sender) { await unsubscribeAll(sender) }
    }

    /// `Received(id)`: the caller, subscribed with receipts, has link or session `id`; it leaves the spool, delivered.
    private func received(_ call: BusCall, id: String) async -> Result<[BusValue], BusError> {
        let mine = subscriptions.withLock { $0[call.sender] ?? [] }.filter(\.receipts).map(\.id)
        guard await service.subscriptions.received(id, bySubscriberIn: mine, context: service.context) else {
            return .failure(
                BusError(
                    name: "io.linkd.Linkd1.Error.NoSuchLink",
                    message: "no link \(DisplayText.sanitize(id)) waits for this connection's receipt"
                )
            )
        }
        return .success([])
    }

    /// The subscribed apps, each with how its subscribers proved they are it (`key`, `flatpak`, both comma-separated
    /// when two did differently): what `linkd status` shows.
    func subscribers() -> [String: String] {
        let proofs = subscriptions.withLock { $0.values.flatMap { $0 } }.map { ($0.app, $0.proof.field) }
        return Dictionary(grouping: proofs, by: \.0).mapValues { Set($0.map(\.1)).sorted().joined(separator: ", ") }
    }

    /// The connection `name` left, or asked to: each of its subscriptions ends, and what was not sent to it goes
    /// back to its app's queue.
    func unsubscribeAll(_ name: String) async {
        let ended = subscriptions.withLock { $0.removeValue(forKey: name) } ?? []
        service.appWindow.leave(name)
        for subscription in ended {
            // Its last send ends first: the link it carried is then written, or back in the queue, never both.
            subscription.sending.cancel()
            await subscription.sending.value
            await service.subscriptions.unsubscribe(subscription.app, id: subscription.id, context: service.context)
            service.activity.release()
        }
    }
}
