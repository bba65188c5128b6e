import LinkdConfig
import LinkdSystem
import LinkdWire

/// linkd's interface for apps on the session bus: `io.linkd.Linkd1` at `/io/linkd/Linkd1`, the name taken once the
/// daemon listens and given up when it stops. An app that proves who it is (``AppProof``) subscribes, and its links
/// and sessions — the `forward` queue's — come to it as signals addressed to its connection alone.
final class AppInterface: Sendable {
    static let name = "io.linkd.Linkd1"
    static let path = "/io/linkd/Linkd1"
    static let interface = "io.linkd.Linkd1"
    /// The introspection XML, the file the package installs in /usr/share/dbus-1/interfaces.
    static let introspection = String(decoding: PackageResources.io_linkd_Linkd1_xml, as: UTF8.self)

    let service: LinkService
    /// The connection, while the interface serves.
    private let endpoint = Lock<BusEndpoint?>(nil)
    /// The subscriptions, by the subscriber's unique name.
    let subscriptions = Lock<[String: [Subscription]]>([:])
    /// When each app asked for its recent reset emails.
    let requests = Lock<[String: [ContinuousClock.Instant]]>([:])

    /// One app a connection subscribed as: the `forward` subscriber it is, and the task that sends it its links.
    struct Subscription: Sendable {
        let app: String
        let proof: AppProof
        let id: UInt64
        /// Whether what it is sent stays the app's until it says `Received`.
        let receipts: Bool
        let sending: Task<Void, Never>
    }

    init(service: LinkService) {
        self.service = service
    }

    /// Serves the interface until the daemon's stop (``stop()``): connects to the session bus, serves the object,
    /// follows which connections leave, and takes the name. Without a session bus, or with the name owned by another
    /// connection, the daemon runs on without it, and says so.
    func run() async {
        let log = service.log
        let endpoint: BusEndpoint
        do {
            endpoint = try BusEndpoint()
        } catch {
            log.info("no D-Bus interface for apps: \(error)")
            return
        }
        self.endpoint.withLock { $0 = endpoint }
        do throws(BusError) {
            try await endpoint.serve(path: Self.path, introspection: Self.introspection) { [self] call in
                Task { await self.answer(call) }
            }
            try await endpoint.watch(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'"
            ) { [self] signal in
                // The bus's own word alone: any peer may send a signal of that name to this connection.
                guard signal.sender == "org.freedesktop.DBus", signal.path == "/org/freedesktop/DBus",
                    signal.arguments.count == 3, let name = signal.arguments[0].string,
                    signal.arguments[2].string == "", name.hasPrefix(":")
                else { return }
                Task { await self.unsubscribeAll(name) }
            }
            try await endpoint.requestName(Self.name)
        } catch {
            log.warning("the D-Bus interface for apps is off: \(error.message)")
            await stop()
            return
        }
        service.appWindow.connect { [self] member, destination, arguments in
            await send(member, to: destination, arguments)
        }
        log.info("serving \(Self.name) on the session bus", event: .busNameTaken)
        await withCheckedContinuation { continuation in endpoint.whenClosed { continuation.resume() } }
        // Closed by the stop, or because the bus went away: no subscriber is reached any more.
        for name in subscriptions.withLock({ Array($0.keys) }) { await unsubscribeAll(name) }
    }

    /// Gives the name up and closes the connection: the subscribers' links not yet sent wait for the next daemon.
    ///
    /// The name is given up on the connection's thread, and the stop does not wait for a bus that is slow to answer.
    func stop() async {
        guard let endpoint = endpoint.withLock({ $0.take() }) else { return }
        service.appWindow.connect(nil)
        endpoint.releaseNameAndClose(Self.name)
        for name in subscriptions.withLock({ Array($0.keys) }) { await unsubscribeAll(name) }
    }

    /// Whether the connection `name` is still on the bus (`NameHasOwner`); `true` when the bus does not say.
    func isConnected(_ name: String) async -> Bool {
        guard let endpoint = endpoint.withLock({ $0 }) else { return false }
        let reply = await endpoint.call(
            destination: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            member: "NameHasOwner",
            arguments: [.string(name)],
            timeout: .seconds(5)
        )
        guard case .success(let values) = reply, let owned = values.first?.boolean else { return true }
        return owned
    }

    /// Sends a signal of the interface to `destination` alone; `false` when it could not be written.
    func send(_ member: String, to destination: String, _ arguments: [BusValue]) async -> Bool {
        guard let endpoint = endpoint.withLock({ $0 }) else { return false }
        return await endpoint.emit(
            path: Self.path,
            interface: Self.interface,
            member: member,
            to: destination,
            arguments: arguments
        )
    }
}
