import Dispatch
import FoundationEssentials
import Glibc
import LinkdConfig
import LinkdFormats
import LinkdSystem

/// `linkd daemon`: serves linkd's socket until it has been idle for `idleExit`, or a signal stops it.
package struct Daemon: Sendable {
    /// The daemon's settings.
    package struct Options: Sendable {
        /// `--socket PATH`; `nil` for `$XDG_RUNTIME_DIR/linkd/socket`.
        package var socket: String?
        /// `--idle-exit SEC`; default 30 s.
        package var idleExit: Duration = .seconds(30)
        /// How long an exec program may run (`LINKD_EXEC_TIME_LIMIT`, seconds; default 120).
        package var execTimeLimit: Duration = .seconds(120)
        /// How long in-flight work may take to finish after SIGTERM.
        package var drainDeadline: Duration = .seconds(10)

        package init(socket: String? = nil, idleExit: Duration = .seconds(30)) {
            self.socket = socket
            self.idleExit = idleExit
            if let seconds = ProcessInfo.processInfo.environment["LINKD_EXEC_TIME_LIMIT"].flatMap(Int.init), seconds > 0
            {
                execTimeLimit = .seconds(seconds)
            }
        }
    }

    /// The first-byte rule: a client that sends no request for this long is dropped.
    static let requestTimeout: Duration = .seconds(5)

    private enum Stop: Error {
        case idle
        case signal
    }

    package let options: Options

    package init(options: Options) {
        self.options = options
    }

    /// Runs until idle exit or a signal.
    ///
    /// - Returns: the process exit status (0, or 69 when the daemon cannot listen).
    package func run() async -> Int32 {
        signal(SIGPIPE, SIG_IGN)  // a client or program that goes away is an EPIPE, not the daemon's death
        let log = DaemonLog.make()
        let notifier = Notifier()
        let paths: DaemonPaths
        let listener: Listener
        do {
            paths = try DaemonPaths.resolve(socket: options.socket)
            try FileSystem.makePrivateDirectory(paths.runtimeDirectory)
            let passed = try ListenedSockets.take()
            if let first = passed.first {
                listener = try Listener.adopt(first)
            } else {
                listener = try Listener.bind(path: paths.socket, lockPath: paths.lock)
            }
        } catch Listener.Failure.anotherDaemonIsRunning {
            return 0
        } catch {
            log.error("cannot listen: \(error)")
            try? notifier.notifyStopping()
            return 69
        }
        let loaded = ConfigLoader.installed().load()
        for error in loaded.errors { log.warning("config: \(error)") }
        let service: LinkService
        do {
            service = LinkService(
                resolver: LinkResolver(apps: loaded.apps, fallbackToBuiltIns: false),
                spool: try Spool(directory: paths.spool),
                log: log,
                execTimeLimit: options.execTimeLimit
            )
        } catch {
            log.error("cannot open the spool: \(error)")
            listener.close()
            return 69
        }
        await service.replay()
        try? notifier.notifyReady(status: "waiting for links (\(loaded.apps.count) apps)")
        log.info("listening on \(listener.ownedPath ?? "the socket passed by systemd") with \(loaded.apps.count) apps")

        let activity = Activity()
        let signals = SignalWatch()
        let signalStream = signals.stream
        do {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await acceptLoop(listener, service, activity, log) }
                group.addTask { try await idleWatch(service, activity) }
                group.addTask {
                    for await _ in signalStream { throw Stop.signal }
                }
            }
        } catch Stop.idle {
            try? notifier.notifyStopping()
            log.info("idle for \(options.idleExit); exiting")
            listener.close()
        } catch {
            signals.stopWatching()  // a second signal now ends the process at once
            try? notifier.notifyStopping()
            listener.close()
            log.info("stopping: draining in-flight links")
            await drain(service)
        }
        return 0
    }

    private func acceptLoop(_ listener: Listener, _ service: LinkService, _ activity: Activity, _ log: DaemonLog) async
    {
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                let connection: FileDescriptor
                do {
                    connection = try await listener.accept()
                } catch is CancellationError {
                    return
                } catch {
                    log.error("accept failed: \(error)")
                    return
                }
                activity.connectionOpened()
                group.addTask {
                    await serve(connection, service, log)
                    activity.connectionClosed()
                }
            }
        }
    }

    private func idleWatch(_ service: LinkService, _ activity: Activity) async throws {
        while true {
            try await Task.sleep(for: .milliseconds(100))
            await service.reap()
            if await !service.isIdle { activity.touch() }
            if activity.idleFor >= options.idleExit { throw Stop.idle }
        }
    }

    private func drain(_ service: LinkService) async {
        let deadline = ContinuousClock.now + options.drainDeadline
        while ContinuousClock.now < deadline {
            await service.reap()
            if await service.isIdle { return }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A subscribed connection: the app's `forward` links are pushed to it until it goes away. It is exempt from the
    /// first-byte rule, since a subscriber only listens.
    private func serveSubscriber(_ socket: AsyncSocket, app: String, _ service: LinkService) async {
        let (id, stream) = await service.subscribe(app)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var buffer: [UInt8] = []
                while let count = try? await socket.read(into: &buffer, deadline: nil), count > 0 {}
            }
            group.addTask {
                for await outgoing in stream {
                    guard Self.writeWithoutWaiting(socket.descriptor, outgoing.line) else { return }
                    await service.written(outgoing.entryID)
                }
            }
            await group.next()
            group.cancelAll()
        }
        await service.unsubscribe(app, id: id)
    }

    /// Writes `line` with non-blocking sends, pausing briefly while the socket is full (at most five seconds), so
    /// that the subscriber's reader keeps the only reactor wait on the descriptor.
    private static func writeWithoutWaiting(_ descriptor: FileDescriptor, _ line: String) -> Bool {
        let bytes = Array(line.utf8)
        var offset = 0
        let deadline = ContinuousClock.now + .seconds(5)
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                send(descriptor.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if count > 0 {
                offset += count
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) && ContinuousClock.now < deadline {
                usleep(5_000)
            } else {
                return false
            }
        }
        return true
    }

    /// One client: its uid is checked before a byte is read; then one response per request line.
    private func serve(_ descriptor: FileDescriptor, _ service: LinkService, _ log: DaemonLog) async {
        let socket: AsyncSocket
        do {
            socket = try AsyncSocket(descriptor)
        } catch {
            descriptor.close()
            return
        }
        defer { socket.close() }
        let credentials = try? PeerCredentials.of(descriptor)
        guard let credentials, credentials.uid == getuid() else {
            let who = credentials.map { "uid \($0.uid) (pid \($0.pid))" } ?? "an unknown peer"
            log.warning("refused a connection from \(who): only uid \(getuid()) may use this daemon")
            let refusal = WireProtocol.failure(
                WireProtocol.Failure(
                    kind: "permission",
                    reason: "wrong_user",
                    message: "this linkd daemon serves uid \(getuid()) only"
                )
            )
            try? await socket.write(Array((refusal + "\n").utf8), deadline: .now + .seconds(1))
            return
        }
        let connection = ClientConnection(socket)
        await connection.serve(service, requestTimeout: Self.requestTimeout) { app in
            await serveSubscriber(socket, app: app, service)
        }
    }
}

/// SIGTERM and SIGINT as an async stream (DispatchSource signal sources on a private queue); owned by `run()`.
struct SignalWatch {
    let stream: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let queue = DispatchQueue(label: "linkd.signals")
        sources = [SIGTERM, SIGINT].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        self.stream = stream
    }

    /// Cancels the sources and restores the default action, so that the next signal terminates the process.
    func stopWatching() {
        for source in sources { source.cancel() }
        signal(SIGTERM, SIG_DFL)
        signal(SIGINT, SIG_DFL)
    }
}
