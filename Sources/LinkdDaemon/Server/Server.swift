import LinkdSystem
import LinkdWire

/// The socket server: accepts connections until the stop, checks each peer's uid before reading a byte, and serves
/// each connection in a task of its own, up to its limit of clients at once; one more gets a refusal and is closed.
struct Server: Sendable {
    let listener: Listener
    let service: LinkService
    let activity: Activity
    let shutdown: Shutdown
    let log: DaemonLog
    let clients: ClientCount

    /// Accepts and serves until the stop, then stops listening and serves until every connection has ended (a
    /// cancelled task ends them all).
    func run() async {
        let (accepted, continuation) = AsyncStream.makeStream(of: FileDescriptor.self)
        await withDiscardingTaskGroup { group in
            group.addTask {
                await withTaskGroup(of: Void.self) { acceptor in
                    acceptor.addTask { await acceptUntilCancelled(into: continuation) }
                    acceptor.addTask { try? await shutdown.waitUntilStopping() }
                    await acceptor.next()
                    acceptor.cancelAll()
                }
                listener.stopListening()  // a new client starts the next daemon, which listens once this one has let go
                continuation.finish()
            }
            for await connection in accepted {
                group.addTask {
                    await serve(connection)
                    shutdown.closed(connection)
                    if clients.left() {
                        log.info("one of \(clients.limit) clients left: a new connection has a place again")
                    }
                    activity.release()
                }
            }
        }
    }

    private func acceptUntilCancelled(into continuation: AsyncStream<FileDescriptor>.Continuation) async {
        while !Task.isCancelled {
            let connection: FileDescriptor
            do {
                connection = try await listener.nextConnection()
            } catch {
                if !(error is CancellationError) { log.error("accept failed: \(error)") }
                return
            }
            if case .refused(let isFirst) = clients.admit() {
                if isFirst { log.warning("refusing new connections: \(clients.limit) clients are connected") }
                await refuse(connection)
                continue
            }
            activity.hold()
            shutdown.opened(connection)
            continuation.yield(connection)
        }
    }

    /// One client too many: one line says so, and the connection is closed without a byte read. A new connection's
    /// buffer has room for the line, so the accept loop does not wait on it.
    private func refuse(_ descriptor: FileDescriptor) async {
        guard let socket = try? AsyncSocket(descriptor) else {
            descriptor.close()
            return
        }
        let refusal = WireProtocol.Response.failed(.tooManyClients(limit: clients.limit))
        try? await socket.write(Array((refusal.line + "\n").utf8), deadline: .now + .milliseconds(100))
        socket.close()
    }

    /// One client: its uid is checked before a byte is read; then one response per request line.
    private func serve(_ descriptor: FileDescriptor) async {
        let socket: AsyncSocket
        do {
            socket = try AsyncSocket(descriptor)
        } catch {
            descriptor.close()
            return
        }
        defer { socket.close() }
        let credentials = try? PeerCredentials.of(descriptor)
        guard let credentials, credentials.uid == CurrentUser.id else {
            let who = credentials.map { "uid \($0.uid) (pid \($0.pid))" } ?? "an unknown peer"
            log.warning("refused a connection from \(who): only uid \(CurrentUser.id) may use this daemon")
            let refusal = WireProtocol.Response.failed(
                WireProtocol.Failure(
                    kind: .permission,
                    reason: .wrongUser,
                    message: "this linkd daemon serves uid \(CurrentUser.id) only"
                )
            )
            try? await socket.write(Array((refusal.line + "\n").utf8), deadline: .now + .seconds(1))
            return
        }
        await ClientConnection(socket).serve(service, requestTimeout: Daemon.requestTimeout)
    }
}
