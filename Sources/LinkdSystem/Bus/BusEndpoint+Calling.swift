import CSystemd

/// A watch of signals: what hears them (sd-bus holds an unretained pointer to it; the endpoint keeps it).
final class BusSignalWatch: Sendable {
    let heard: @Sendable (BusSignal) -> Void

    init(_ heard: @escaping @Sendable (BusSignal) -> Void) {
        self.heard = heard
    }
}

/// A call whose reply is awaited: it is finished once, by the reply or by the endpoint's close.
final class ReplyWaiter: Sendable {
    private let continuation: Lock<CheckedContinuation<Result<[BusValue], BusError>, Never>?>

    init(_ continuation: CheckedContinuation<Result<[BusValue], BusError>, Never>) {
        self.continuation = Lock(continuation)
    }

    func finish(_ result: Result<[BusValue], BusError>) {
        continuation.withLock { $0.take() }?.resume(returning: result)
    }
}

extension BusEndpoint {
    /// Hears every signal the match rule `match` selects (`type='signal',sender=…,interface=…`) until the endpoint
    /// closes. `heard` runs on the endpoint's thread: it must not block.
    ///
    /// - Throws: ``BusError`` when the bus refuses the rule.
    package func watch(_ match: String, _ heard: @escaping @Sendable (BusSignal) -> Void) async throws(BusError) {
        let watch = BusSignalWatch(heard)
        handlers.withLock { $0.watches.append(watch) }
        let pointer = UInt(bitPattern: Unmanaged.passUnretained(watch).toOpaque())
        let result = await perform { sd, bus in
            sd.bus_add_match(
                bus,
                nil,
                match,
                { message, userdata, _ in
                    guard let message, let userdata, let sd = try? Libsystemd.calls().pointee else { return 0 }
                    let watch = Unmanaged<BusSignalWatch>.fromOpaque(userdata).takeUnretainedValue()
                    let text = { (read: UnsafePointer<CChar>?) in read.map { String(cString: $0) } ?? "" }
                    watch.heard(
                        BusSignal(
                            sender: text(sd.bus_message_get_sender(message)),
                            path: text(sd.bus_message_get_path(message)),
                            interface: text(sd.bus_message_get_interface(message)),
                            member: text(sd.bus_message_get_member(message)),
                            arguments: BusValue.read(message, sd) ?? []
                        )
                    )
                    return 0
                },
                UnsafeMutableRawPointer(bitPattern: pointer)
            )
        }
        guard let result, result >= 0 else {
            throw BusError(name: "io.linkd.Error.Failed", message: "the bus refused the match '\(match)'")
        }
    }

    /// Calls `member` of `interface` on `destination`'s object at `path`, and waits for its reply.
    ///
    /// - Returns: the reply's values, or the error it answered with (`io.linkd.Error.Closed` when the endpoint
    ///   closed first; `org.freedesktop.DBus.Error.NoReply` when `timeout` passed).
    package func call(
        destination: String,
        path: String,
        interface: String,
        member: String,
        arguments: [BusValue],
        timeout: Duration = .seconds(25)
    ) async -> Result<[BusValue], BusError> {
        let (seconds, attoseconds) = max(timeout, .milliseconds(1)).components
        let microseconds = UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000)
        let waiting = Lock<ObjectIdentifier?>(nil)
        let result = await withCheckedContinuation { continuation in
            let waiter = ReplyWaiter(continuation)
            waiting.withLock { $0 = ObjectIdentifier(waiter) }
            handlers.withLock { $0.calls[ObjectIdentifier(waiter)] = waiter }
            let pointer = UInt(bitPattern: Unmanaged.passUnretained(waiter).toOpaque())
            let sent = enqueue { [handlers] handle in
                guard let handle, let sd = try? Libsystemd.calls().pointee else { return }
                var message: OpaquePointer?
                var result = sd.bus_message_new_method_call(
                    handle.pointer,
                    &message,
                    destination,
                    path,
                    interface,
                    member
                )
                if result >= 0, let message {
                    result = BusValue.append(arguments, to: message, sd)
                    if result >= 0 {
                        result = sd.bus_call_async(
                            handle.pointer,
                            nil,
                            message,
                            { reply, userdata, _ in
                                guard let reply, let userdata else { return 0 }
                                BusEndpoint.replied(
                                    reply,
                                    Unmanaged<ReplyWaiter>.fromOpaque(userdata).takeUnretainedValue()
                                )
                                return 1
                            },
                            UnsafeMutableRawPointer(bitPattern: pointer),
                            microseconds
                        )
                    }
                    _ = sd.bus_message_unref(message)
                }
                if result < 0 {
                    handlers.withLock { _ = $0.calls.removeValue(forKey: ObjectIdentifier(waiter)) }
                    waiter.finish(.failure(BusError(name: "io.linkd.Error.Failed", message: "cannot call \(member)")))
                }
            }
            if !sent { waiter.finish(.failure(BusError(name: "io.linkd.Error.Closed", message: "the bus closed"))) }
        }
        // Finished, wherever from: sd-bus no longer holds it (a close took the bus with it).
        if let id = waiting.withLock({ $0 }) { handlers.withLock { _ = $0.calls.removeValue(forKey: id) } }
        return result
    }

    /// The reply of a call: its values, or its error.
    fileprivate static func replied(_ reply: OpaquePointer, _ waiter: ReplyWaiter) {
        guard let sd = try? Libsystemd.calls().pointee else { return }
        if sd.bus_message_is_method_error(reply, nil) > 0, let error = sd.bus_message_get_error(reply) {
            let name = error.pointee.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
            let message = error.pointee.message.map { String(cString: $0) } ?? ""
            waiter.finish(.failure(BusError(name: name, message: message)))
        } else if let values = BusValue.read(reply, sd) {
            waiter.finish(.success(values))
        } else {
            waiter.finish(.failure(.invalidArguments("a reply of an unexpected type")))
        }
    }
}
