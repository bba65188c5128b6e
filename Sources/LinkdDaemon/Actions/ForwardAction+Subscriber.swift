import LinkdFormats
import LinkdSystem
import LinkdWire

/// The `forward` action's subscribers: a connection that sends `{"op": "subscribe", "app": …}` (with the app's
/// subscriber key, to take its sessions too) becomes the app's, and its links are pushed to it.
extension ForwardAction: RequestServing {
    /// How long a subscriber may take no line before it is let go (its socket buffer stays full that long).
    static let subscriberPatience = Duration.seconds(5)

    nonisolated func serve(
        _ request: WireProtocol.Request,
        from connection: ClientConnection,
        service: LinkService
    ) async throws(WireProtocol.Failure) -> Served? {
        guard case .subscribe(let app, let key) = request else { return nil }
        // No key: the app's links only. A key: its sessions too, when it is the app's.
        if let key, !service.subscriberKeys.isValid(key.revealed(), for: app) {
            service.log.warning("a subscriber of \(app) sent a wrong key", [("LINKD_APP", app)])
            throw .wrongSubscriberKey(app: app)
        }
        let answer = WireProtocol.Response.subscribed(app: app).line
        await serveSubscriber(connection.socket, app: app, receivesSessions: key != nil, context: service.context) {
            (try? await connection.write(answer, deadline: .now + .seconds(5))) != nil
        }
        return .keptConnection
    }

    /// A subscribed connection: the app's links (and its sessions, with `receivesSessions`) are pushed to it until it
    /// goes away, or until it takes no line for ``subscriberPatience``. It is exempt from the first-byte rule, since a
    /// subscriber only listens. It is registered before `acknowledge` answers it (`false` when that failed):
    /// subscribers are served in the order their answers went out.
    private nonisolated func serveSubscriber(
        _ socket: AsyncSocket,
        app: String,
        receivesSessions: Bool,
        context: ActionContext,
        acknowledge: @Sendable () async -> Bool
    ) async {
        let (id, stream) = await subscribe(app, receivesSessions: receivesSessions, context: context)
        guard await acknowledge() else {
            await unsubscribe(app, id: id, context: context)
            return
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var buffer: [UInt8] = []
                while let count = try? await socket.read(into: &buffer, deadline: nil), count > 0 {}
            }
            group.addTask {
                // Its own descriptor for the writes, so that they wait on the reactor beside the reader's wait.
                guard let writer = try? socket.duplicate() else { return }
                defer { writer.close() }
                for await outgoing in stream {
                    do {
                        try await writer.write(Self.socketLine(outgoing), deadline: .now + Self.subscriberPatience)
                    } catch ReactorError.timedOut {
                        // A line may be cut off: it is no link, and that link comes again to the next subscription.
                        context.log.warning(
                            "\(app)'s subscriber took no line for \(Self.subscriberPatience.components.seconds) s "
                                + "and is let go; the links it had not taken wait for its next subscription",
                            [("LINKD_APP", app)]
                        )
                        return
                    } catch {
                        return  // gone
                    }
                    await self.written(outgoing.entryID, context: context)
                }
            }
            await group.next()
            group.cancelAll()
        }
        await unsubscribe(app, id: id, context: context)
    }

    /// `outgoing`'s line as a socket subscriber gets it: with `"platform_data"`, the click's focus
    /// (`activation-token`, `desktop-startup-id`), when it came with one, as the bus's `Link` signal carries it.
    static func socketLine(_ outgoing: SubscriberLine) -> [UInt8] {
        guard !outgoing.platform.isEmpty, case .object(var members)? = try? JSONValue.parse(Array(outgoing.line.utf8))
        else { return Array(outgoing.line.utf8) }
        let platform = outgoing.platform.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }
        members.append(("platform_data", .object(platform)))
        return Array((JSONValue.object(members).serialized + "\n").utf8)
    }
}
