import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdSystem
import LinkdWire

/// The client half of `linkd open`: one connection to the daemon, started on demand.
struct DaemonClient {
    /// The daemon's longest silence: a reset's 60 s of backend requests (retries included), then its answer.
    static let answerTimeout: Duration = .seconds(130)
    /// How long a connection's first request may go unread: a socket whose listener never reads (systemd holding
    /// linkd.socket for a service that cannot start) is given up on then, so that a click always ends.
    static let firstReadBound: Duration = .seconds(15)

    let paths: DaemonPaths
    private var connection: (socket: AsyncSocket, reader: LineReader)?
    /// The peer's pid, as `SO_PEERCRED` gave it when the connection was made.
    private var peerPID: Int32 = 0
    /// When the connection's first request went out, and how much of what was sent its peer had not read after the
    /// latest send; nil before the first request, and once the peer has read or answered.
    private var unreadSince: (sent: ContinuousClock.Instant, unread: Int)?
    /// Whether the peer has read or answered anything on this connection: a daemon serves it, and the first-read
    /// bound is over for good (a daemon busy with one link's reset may leave the next ones unread a while).
    private var isServed = false

    init(paths: DaemonPaths) {
        self.paths = paths
    }

    /// A client connected to this user's daemon (``connect()``), at the paths of this process's environment.
    ///
    /// - Throws: a ``CommandFailure`` (exit 69) when there is no runtime folder or no daemon could be reached.
    static func connectedToUsersDaemon() async throws(CommandFailure) -> DaemonClient {
        let paths: DaemonPaths
        do throws(DaemonPaths.Missing) {
            paths = try DaemonPaths.resolve()
        } catch {
            throw .failed(error.description, exitCode: .unavailable)
        }
        var client = DaemonClient(paths: paths)
        try await client.connect()
        return client
    }

    /// Connects, starting `linkd daemon` when nobody answers and waiting (up to five seconds) until it reports
    /// that it listens.
    ///
    /// - Throws: a ``CommandFailure`` (exit 69) naming the daemon's log when none could be reached.
    mutating func connect() async throws(CommandFailure) {
        try checkFolders()
        if let descriptor = try? UnixSocket.connect(path: paths.socket) { return try adoptChecked(descriptor) }
        let deadline = ContinuousClock.now + .seconds(5)
        if await startDaemon(until: deadline), let descriptor = try? UnixSocket.connect(path: paths.socket) {
            return try adoptChecked(descriptor)
        }
        // Another client's daemon won the start: it reports to that client, so this one looks for its socket.
        var delay = Duration.milliseconds(5)
        while ContinuousClock.now < deadline {
            if let descriptor = try? UnixSocket.connect(path: paths.socket) { return try adoptChecked(descriptor) }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .milliseconds(100))
        }
        throw .failed(
            "the linkd daemon is not running and could not be started (log: \(paths.log))",
            exitCode: .unavailable
        )
    }

    /// Checks, before a byte is sent, that the runtime folder and linkd's folder in it are this user's own private
    /// folders (not links, owned by this uid, mode 0700): in a shared or misconfigured `XDG_RUNTIME_DIR` another
    /// user's process could be listening where the daemon should.
    ///
    /// - Throws: a ``CommandFailure`` naming the folder: exit 77 for a folder that is not private, 69 when there is
    ///   no runtime folder or its socket path is too long to connect to (no daemon could listen there).
    private func checkFolders() throws(CommandFailure) {
        let runtime = paths.userRuntimeDirectory
        if FileSystem.isMissing(runtime) {
            throw .failed(
                "XDG_RUNTIME_DIR '\(runtime)' does not exist, so there is no place for the linkd socket",
                exitCode: .unavailable
            )
        }
        if paths.socket.utf8.count > UnixSocket.maximumPathLength {
            throw .failed(
                "the socket path '\(paths.socket)' has \(paths.socket.utf8.count) bytes, more than the "
                    + "\(UnixSocket.maximumPathLength) a socket path may have; linkd needs a shorter XDG_RUNTIME_DIR",
                exitCode: .unavailable
            )
        }
        let problem =
            FileSystem.privacyProblem(ofFolder: runtime, owner: CurrentUser.id)
            ?? FileSystem.privacyProblem(ofFolder: paths.runtimeDirectory, owner: CurrentUser.id, mayBeMissing: true)
        if let problem {
            throw .failed("\(problem); linkd sends nothing there", exitCode: .permission)
        }
    }

    /// Takes the connection once its peer is this user (`SO_PEERCRED`): blocking, since this client has one
    /// conversation and waits for each answer anyway (the reactor's hand-over would cost every link of
    /// `linkd open -` tens of microseconds).
    ///
    /// - Throws: a ``CommandFailure`` (exit 77) when another user listens on the socket; nothing was sent.
    private mutating func adoptChecked(_ descriptor: FileDescriptor) throws(CommandFailure) {
        let peer = try? PeerCredentials.of(descriptor)
        guard let peer, peer.uid == CurrentUser.id else {
            descriptor.close()
            let who = peer.map { "uid \($0.uid)" } ?? "an unknown peer"
            throw .failed(
                "the socket '\(paths.socket)' is served by \(who), not this user; nothing was sent",
                exitCode: .permission
            )
        }
        let socket = AsyncSocket.blocking(descriptor)
        connection = (socket, LineReader(socket, limit: WireProtocol.maximumLine))
        peerPID = peer.pid
        unreadSince = nil
        isServed = false
    }

    /// Sends one request without waiting for its response: the daemon answers a connection's requests in order.
    ///
    /// The daemon may have answered and closed before reading the request (a refusal of this uid): its answer is
    /// still waiting to be read, so a failed write is not the end; ``receive(answer:)`` tells.
    mutating func send(_ request: WireProtocol.Request) async {
        guard let socket = connection?.socket else { return }
        try? await socket.write(Array((request.line + "\n").utf8), deadline: .now + Self.answerTimeout)
        if !isServed {
            unreadSince = (unreadSince?.sent ?? .now, UnixSocket.unreadByPeer(socket.descriptor) ?? 0)
        }
    }

    /// The response to the oldest request not yet answered; `nil` when the connection ended first. A password
    /// question the daemon asks on the way is answered with `answer`, a confirmation with `confirm`.
    mutating func receive(
        answer: (WireProtocol.SecretQuestion) -> Secret? = { _ in nil },
        confirm: (WireProtocol.ConfirmQuestion) -> Bool = { _ in false }
    ) async -> WireProtocol.Response? {
        switch await receive(within: Self.answerTimeout, answer: answer, confirm: confirm) {
        case .response(let response): response
        case .timedOut, .gone, .unread: nil
        }
    }

    /// What ``receive(within:answer:confirm:)`` got.
    enum Received {
        /// The response to the oldest request not yet answered.
        case response(WireProtocol.Response)
        /// Nothing, in the time given: the connection is still there.
        case timedOut
        /// The connection ended, or the daemon said something no daemon says.
        case gone
        /// The listener has not read the connection's first request within ``DaemonClient/firstReadBound``: no daemon
        /// serves the socket. What it says names the cause.
        case unread(CommandFailure)
    }

    /// The response to the oldest request not yet answered, waiting at most `timeout` for each line; questions on the
    /// way are answered with `answer` and `confirm`.
    mutating func receive(
        within timeout: Duration,
        answer: (WireProtocol.SecretQuestion) -> Secret? = { _ in nil },
        confirm: (WireProtocol.ConfirmQuestion) -> Bool = { _ in false }
    ) async -> Received {
        guard let socket = connection?.socket, var reader = connection?.reader else { return .gone }
        defer { connection = (socket, reader) }
        while true {
            let read: LineReader.Line
            let deadline = ContinuousClock.now + timeout
            do {
                let bound = unreadSince.map { $0.sent + Self.firstReadBound }
                guard let next = try await reader.nextLine(deadline: min(deadline, bound ?? deadline)) else {
                    return .gone
                }
                read = next
                unreadSince = nil
                isServed = true
            } catch ReactorError.timedOut {
                guard let unread = unreadSince, ContinuousClock.now >= unread.sent + Self.firstReadBound else {
                    return .timedOut
                }
                let left = UnixSocket.unreadByPeer(socket.descriptor) ?? 0
                guard left > 0 && left >= unread.unread else {
                    unreadSince = nil  // read: the daemon has the link, and its own times apply
                    isServed = true
                    continue
                }
                return .unread(unreadFailure)
            } catch {
                return .gone
            }
            guard !read.isCut else { return .gone }  // no daemon says that much on one line
            let line = read.bytes
            let object = try? JSONValue.parse(line)
            let reply: String
            if let question = object.flatMap(WireProtocol.SecretQuestion.init) {
                reply = WireProtocol.answer(answer(question), to: question)
            } else if let question = object.flatMap(WireProtocol.ConfirmQuestion.init) {
                reply = WireProtocol.confirmAnswer(confirm(question))
            } else {
                return .response(WireProtocol.Response(line: line))
            }
            try? await socket.write(Array((reply + "\n").utf8), deadline: .now + Self.answerTimeout)
        }
    }

    /// Why a link was not sent on: the socket's listener did not read it within ``firstReadBound``. Under systemd
    /// that is linkd.service failing to start, which `systemctl --user status` explains.
    private var unreadFailure: CommandFailure {
        let comm = FileSystem.contents(of: "/proc/\(peerPID)/comm", limit: 64).map {
            String(decoding: $0, as: UTF8.self)
        }
        let seconds = Self.firstReadBound.components.seconds
        let cause =
            comm == "systemd\n"
            ? "linkd's daemon did not start within \(seconds) s; 'systemctl --user status linkd.service' shows why"
            : "the process (pid \(peerPID)) listening on '\(paths.socket)' did not read the link within \(seconds) s"
        return .failed(cause + "; nothing was opened: open the link again", exitCode: .temporaryFailure)
    }

    /// Closes the connection.
    mutating func close() {
        connection?.socket.close()
        connection = nil
    }

    /// Starts `linkd daemon` in a session of its own, in `/`, its output appended to the log (0600; the daemon sees
    /// that its standard error is the log and rotates it past 1 MiB), and waits until it reports `READY=1` (on a
    /// `NOTIFY_SOCKET` of this client's) or exits. It inherits nothing of this client but the variables of its
    /// environment that ``DaemonEnvironment`` keeps.
    ///
    /// - Returns: whether the daemon reported that it listens before `deadline`.
    private func startDaemon(until deadline: ContinuousClock.Instant) async -> Bool {
        let folder = String(paths.log[..<(paths.log.lastIndex(of: "/") ?? paths.log.endIndex)])
        try? FileSystem.makePrivateDirectory(folder)
        guard let log = try? FileSystem.openPrivateForAppending(paths.log) else { return false }
        defer { log.close() }
        try? FileSystem.makePrivateDirectory(paths.runtimeDirectory)
        let readiness = try? ReadinessListener(path: paths.runtimeDirectory + "/start-\(CurrentProcess.id).notify")
        defer { readiness?.close() }
        // Only the documented environment: nothing of this client's own (LD_PRELOAD, SSLKEYLOGFILE …) reaches it.
        var environment = DaemonEnvironment.filtered(ProcessInfo.processInfo.environment)
        environment["NOTIFY_SOCKET"] = readiness?.path
        var daemon = Subprocess([Self.executablePath, "daemon"], environment: environment, directory: "/")
        daemon.output = .descriptor(log)
        daemon.errorOutput = .descriptor(log)
        daemon.startsNewSession = true  // its terminal's signals do not reach the daemon
        guard let running = try? daemon.spawn() else { return false }
        defer { running.closeDescriptors() }  // not reaped here: the daemon outlives this client
        guard let readiness else { return false }
        // Ready, or gone (another daemon held the start lock): whichever comes first.
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await readiness.waitForReady(deadline: deadline) }
            group.addTask {
                _ = try? await Reactor.shared.wait(for: running.exitDescriptor, deadline: deadline)
                return false
            }
            let ready = await group.next() ?? false
            group.cancelAll()
            return ready
        }
    }

    /// This program's absolute path.
    static var executablePath: String {
        FileSystem.executablePath ?? CommandLine.arguments[0]
    }
}
