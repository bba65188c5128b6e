import CSystemd

/// An object the endpoint serves: its path, its introspection XML, and what answers its calls.
struct ServedObject: Sendable {
    let path: String
    let introspection: String
    let answer: @Sendable (BusCall) -> Void
}

/// A method call to an object an endpoint serves, with who made it. Its handler must answer it once with
/// ``reply(_:)``.
package struct BusCall: Sendable {
    package let interface: String
    package let member: String
    /// The caller's unique name (`:1.42`).
    package let sender: String
    /// The caller's process id and effective user id, as the bus knows them; `nil` when the bus did not say.
    package let processID: Int32?
    package let userID: UInt32?
    package let arguments: [BusValue]
    let message: BusMessage
    let endpoint: BusEndpoint

    /// Answers the call: with values (the member's out arguments), or with an error.
    package func reply(_ result: Result<[BusValue], BusError>) {
        let message = message
        endpoint.enqueue { handle in
            defer { message.release(handle) }
            guard let handle else { return }
            message.reply(result, on: handle)
        }
    }
}

/// A referenced sd-bus message: used, and let go, on its endpoint's thread only.
struct BusMessage: @unchecked Sendable {
    let pointer: OpaquePointer
    let sd: linkd_systemd_api

    /// Sends the method return or error of this call.
    func reply(_ result: Result<[BusValue], BusError>, on handle: BusHandle) {
        var answer: OpaquePointer?
        switch result {
        case .success(let values):
            guard sd.bus_message_new_method_return(pointer, &answer) >= 0, let answer else { return }
            defer { _ = sd.bus_message_unref(answer) }
            guard BusValue.append(values, to: answer, sd) >= 0 else { return }
            _ = sd.bus_send(handle.pointer, answer, nil)
        case .failure(let failure):
            var error = sd_bus_error()
            defer { sd.bus_error_free(&error) }
            _ = sd.bus_error_set(&error, failure.name, failure.message)
            guard sd.bus_message_new_method_error(pointer, &answer, &error) >= 0, let answer else { return }
            defer { _ = sd.bus_message_unref(answer) }
            _ = sd.bus_send(handle.pointer, answer, nil)
        }
    }

    /// Lets the message go (on the endpoint's thread, or with no thread left to use it).
    func release(_ handle: BusHandle?) {
        _ = sd.bus_message_unref(pointer)
    }
}

extension BusEndpoint {
    /// Owns `name` on the bus (no queueing, no replacing: another owner makes it fail).
    ///
    /// - Throws: ``BusError`` naming why it could not (`io.linkd.Error.NameTaken` when another connection owns it).
    package func requestName(_ name: String) async throws(BusError) {
        let result = await perform { sd, bus in sd.bus_request_name(bus, name, 0) }
        switch result {
        case nil: throw BusError(name: "io.linkd.Error.Closed", message: "the bus connection closed")
        case let code? where code == -EEXIST:
            throw BusError(name: "io.linkd.Error.NameTaken", message: "another connection owns \(name)")
        case let code? where code < 0:
            throw BusError(name: "io.linkd.Error.Failed", message: "\(name): \(Errno(rawValue: -code))")
        default: return
        }
    }

    /// Gives `name` up.
    package func releaseName(_ name: String) async {
        _ = await perform { sd, bus in sd.bus_release_name(bus, name) }
    }

    /// Gives `name` up and closes the connection, on the endpoint's thread, without waiting for either: closing lets
    /// the name go too, if the bus is too slow to answer the release.
    package func releaseNameAndClose(_ name: String) {
        enqueue { handle in
            if let handle, let sd = try? Libsystemd.calls().pointee { _ = sd.bus_release_name(handle.pointer, name) }
        }
        close()
    }

    /// Serves one object at `path`: `Introspect` answers `introspection`, every other call goes to `answer`, which
    /// must not block (start a task) and must reply to each call once.
    ///
    /// - Throws: ``BusError`` when the bus refuses the object.
    package func serve(
        path: String,
        introspection: String,
        answer: @escaping @Sendable (BusCall) -> Void
    ) async throws(BusError) {
        handlers.withLock { $0.object = ServedObject(path: path, introspection: introspection, answer: answer) }
        let me = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        let result = await perform { sd, bus in
            // The slot is floating: it lives as long as the connection.
            sd.bus_add_object(
                bus,
                nil,
                path,
                { message, userdata, _ in
                    guard let message, let userdata else { return 0 }
                    return Unmanaged<BusEndpoint>.fromOpaque(userdata).takeUnretainedValue().received(message)
                },
                UnsafeMutableRawPointer(bitPattern: me)
            )
        }
        guard let result, result >= 0 else {
            throw BusError(name: "io.linkd.Error.Failed", message: "cannot serve \(path): \(result ?? 0)")
        }
    }

    /// A method call to the served object, on the endpoint's thread.
    private func received(_ message: OpaquePointer) -> Int32 {
        guard let object = handlers.withLock({ $0.object }) else { return 0 }
        let interface = sd.bus_message_get_interface(message).map { String(cString: $0) } ?? ""
        let member = sd.bus_message_get_member(message).map { String(cString: $0) } ?? ""
        let unreferenced = BusMessage(pointer: message, sd: sd)  // answered now, before the handler returns
        if interface == "org.freedesktop.DBus.Introspectable", member == "Introspect" {
            unreferenced.reply(.success([.string(object.introspection)]), on: bus)
            return 1
        }
        if interface.hasPrefix("org.freedesktop.DBus.") { return 0 }  // Peer and Properties: sd-bus's own answers
        guard let arguments = BusValue.read(message, sd) else {
            unreferenced.reply(.failure(.invalidArguments("\(member): arguments of an unexpected type")), on: bus)
            return 1
        }
        _ = sd.bus_message_ref(message)  // kept until its reply, which comes later from another thread
        let referenced = BusMessage(pointer: message, sd: sd)
        let (processID, userID) = Self.credentials(of: message, sd)
        object.answer(
            BusCall(
                interface: interface,
                member: member,
                sender: sd.bus_message_get_sender(message).map { String(cString: $0) } ?? "",
                processID: processID,
                userID: userID,
                arguments: arguments,
                message: referenced,
                endpoint: self
            )
        )
        return 1
    }

    /// The process id and effective user id of the sender of `message`, as the bus says them.
    private static func credentials(of message: OpaquePointer, _ sd: linkd_systemd_api) -> (Int32?, UInt32?) {
        var creds: OpaquePointer?
        let mask: UInt64 = (1 << 0) | (1 << 3) | (1 << 4)  // SD_BUS_CREDS_PID, _UID, _EUID
        guard sd.bus_query_sender_creds(message, mask, &creds) >= 0, let creds else { return (nil, nil) }
        defer { _ = sd.bus_creds_unref(creds) }
        var (pid, euid): (pid_t, uid_t) = (0, 0)
        let pidKnown = sd.bus_creds_get_pid(creds, &pid) >= 0
        let uidKnown = sd.bus_creds_get_euid(creds, &euid) >= 0
        return (pidKnown ? pid : nil, uidKnown ? euid : nil)
    }

    /// Sends the signal `member` of `interface` from `path` to the connection `destination` alone (a unicast signal:
    /// the bus routes it to that connection, and to no one watching for it); waits until it has been written to the
    /// bus.
    ///
    /// - Returns: whether it was written.
    package func emit(
        path: String,
        interface: String,
        member: String,
        to destination: String,
        arguments: [BusValue]
    ) async -> Bool {
        await perform { sd, bus in
            var message: OpaquePointer?
            guard sd.bus_message_new_signal(bus, &message, path, interface, member) >= 0, let message else {
                return false
            }
            defer { _ = sd.bus_message_unref(message) }
            guard sd.bus_message_set_destination(message, destination) >= 0,
                BusValue.append(arguments, to: message, sd) >= 0, sd.bus_send(bus, message, nil) >= 0
            else { return false }
            return sd.bus_flush(bus) >= 0
        } ?? false
    }
}
