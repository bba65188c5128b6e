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
            await subscribe(call, app: arguments[0].string ?? "", key: arguments[1].string ?? "")
        case ("Unsubscribe", let arguments) where arguments.isEmpty:
            await unsubscribeAll(call.sender)
            call.reply(.success([]))
        case ("Subscribe", _), ("Unsubscribe", _):
            call.reply(.failure(.invalidArguments("\(call.member) takes other arguments: see its introspection")))
        default:
            call.reply(.failure(BusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: call.member)))
        }
    }

    /// Makes the caller `app`'s subscriber once it has proved it is `app`, and answers it.
    private func subscribe(_ call: BusCall, app: String, key: String) async {
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
        let context = service.context
        let (id, stream) = await service.forward.subscribe(app, receivesSessions: true, context: context)
        service.activity.hold()  // a subscribed app keeps the daemon up, as a subscribed connection does
        let sender = call.sender
        // Answered before the first link is handed to the connection's thread, which sends in order.
        call.reply(.success([]))
        let sending = Task { [self] in
            for await outgoing in stream {
                guard let (member, arguments) = Delivery.signal(for: outgoing.line),
                    await send(member, to: sender, arguments)
                else { break }
                await service.forward.written(outgoing.entryID, context: context)
            }
        }
        subscriptions.withLock { $0[sender, default: []].append(Subscription(app: app, id: id, sending: sending)) }
        service.log.info(
            "\(app) subscribed on the session bus (\(proof.description))",
            [("LINKD_APP", app), ("LINKD_PROOF", proof.field)],
            event: .subscribed
        )
    }

    /// The connection `name` left, or asked to: each of its subscriptions ends, and what was not sent to it goes
    /// back to its app's queue.
    func unsubscribeAll(_ name: String) async {
        let ended = subscriptions.withLock { $0.removeValue(forKey: name) } ?? []
        for subscription in ended {
            subscription.sending.cancel()
            await service.forward.unsubscribe(subscription.app, id: subscription.id, context: service.context)
            service.activity.release()
        }
    }
}
