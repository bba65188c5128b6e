import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdSystem
package import LinkdWire

/// `linkd daemon`: serves linkd's socket until it has been idle for `idleExit`, or a signal stops it.
package struct Daemon: Sendable {
    /// The first-byte rule: a client that sends no request for this long is dropped.
    static let requestTimeout: Duration = .seconds(5)

    package let options: Options

    package init(options: Options) {
        self.options = options
    }

    /// Runs until idle exit or a signal, then stops in two phases (``Shutdown``).
    ///
    /// - Returns: ``ExitCode/success``; ``ExitCode/unavailable`` when the daemon cannot listen,
    ///   ``ExitCode/permission`` when the runtime folder is not this user's alone, ``ExitCode/temporaryFailure`` when
    ///   another daemon of this user already listens (one of several started together wins; the others say so and
    ///   exit).
    package func run() async -> ExitCode {
        ProcessHardening.ignoreBrokenPipes()  // a client or program that goes away is an EPIPE, not the daemon's death
        // Whoever started it (systemd, or the first `linkd open`), the daemon keeps only the documented environment.
        ProcessHardening.replaceEnvironment(with: DaemonEnvironment.filtered(ProcessInfo.processInfo.environment))
        let log = DaemonLog.make()
        let notifier = Notifier()
        let paths: DaemonPaths
        let listener: Listener
        switch Self.listen(options: options, log: log, notifier: notifier) {
        case .listening(let socketPaths, let socket): (paths, listener) = (socketPaths, socket)
        case .exit(let code): return code
        }
        let loader = ConfigLoader.installed(actions: .linkd)
        // Watched before the first read, so that no edit falls between the two.
        let watch = FolderWatch(loader.directories.map(\.path))
        let loaded = loader.load()
        for error in loaded.errors { log.warning("config: \(error)") }
        let parts = Parts(options: options, paths: paths, apps: loaded.apps, log: log)
        let server = Server(
            listener: listener,
            service: parts.service,
            activity: parts.activity,
            shutdown: parts.shutdown,
            log: log,
            clients: ClientCount(limit: options.limits.clients)
        )
        let signals = SignalWatch()
        // Read before the server starts, so that no link it accepts is taken for one left behind.
        let left = await parts.service.leftInSpool()
        let services = parts.services(server: server, signals: signals, watch: watch, loader: loader, replaying: left)
        // Ready, and said so, before any service runs: the log's first line of this daemon is that it listens.
        try? notifier.notifyReady(status: "waiting for links (\(loaded.apps.count) apps)")
        log.info(
            "listening on \(listener.ownedPath ?? "the socket passed by systemd") with \(loaded.apps.count) apps",
            event: .listening
        )
        if let reason = watch.pollingReason {
            log.warning(
                "the configuration folders cannot be watched (\(reason)); they are compared every "
                    + "\(FolderWatch.pollInterval.components.seconds) s instead"
            )
        }
        await withDiscardingTaskGroup { group in
            for service in services { group.addTask { await service.run() } }
            await stop(when: firstOf(parts.activity, parts.shutdown), services, parts, notifier, log)
            group.cancelAll()
        }
        withExtendedLifetime(signals) { listener.releaseLock() }
        return .success
    }

    /// A socket to listen on, or why the daemon exits.
    private enum Listening {
        case listening(DaemonPaths, Listener)
        case exit(ExitCode)
    }

    /// The listening socket: systemd's, or one bound at the socket path (its runtime folder this user's alone).
    private static func listen(
        options: Options,
        log: DaemonLog,
        notifier: Notifier
    ) -> Listening {
        do throws(any Error) {
            let paths = try DaemonPaths.resolve(socket: options.socket)
            // The rule linkd open applies before it sends a byte: the runtime folder is this user's alone.
            let runtime = paths.userRuntimeDirectory
            if let problem = FileSystem.privacyProblem(ofFolder: runtime, owner: CurrentUser.id) {
                log.error("cannot listen: \(problem); linkd listens only in a private runtime folder")
                try? notifier.notifyStopping()
                return .exit(.permission)
            }
            try FileSystem.makePrivateDirectory(paths.runtimeDirectory)
            if let first = try ListenedSockets.take().first { return .listening(paths, try Listener.adopt(first)) }
            return .listening(paths, try Listener.bind(path: paths.socket, lockPath: paths.lock))
        } catch Listener.Failure.anotherDaemonIsRunning {
            log.notice("another linkd daemon is already running for this user; this one exits")
            return .exit(.temporaryFailure)
        } catch {
            log.error("cannot listen: \(error)")
            try? notifier.notifyStopping()
            return .exit(.unavailable)
        }
    }

    private enum StopReason: Sendable {
        case idle
        case signal
    }

    /// Waits for the idle exit or the first signal.
    private func firstOf(_ activity: Activity, _ shutdown: Shutdown) async -> StopReason {
        await withTaskGroup(of: StopReason?.self) { group in
            group.addTask { (try? await activity.waitUntilIdle(for: options.idleExit)) == nil ? nil : .idle }
            group.addTask { (try? await shutdown.waitForSignals(1)) == nil ? nil : .signal }
            let reason = await group.next() ?? nil
            group.cancelAll()
            return reason ?? .signal
        }
    }

    /// The stop's first phase: every service hears it, the last started first (the server takes no new work before
    /// the `forward` queue lets its sessions go); running work may finish until the drain deadline or a second
    /// signal. The caller then cancels every service.
    private func stop(
        when reason: StopReason,
        _ services: [DaemonService],
        _ parts: Parts,
        _ notifier: Notifier,
        _ log: DaemonLog
    ) async {
        try? notifier.notifyStopping()
        switch reason {
        case .idle: log.info("idle for \(options.idleExit); exiting", event: .stopping)
        case .signal:
            log.info("stopping: letting running work finish for up to \(options.drainDeadline)", event: .stopping)
        }
        for service in services.reversed() { await service.stopping() }
        let deadline = options.drainDeadline
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await parts.activity.waitUntilQuiet() }
            group.addTask { try? await Task.sleep(for: deadline) }
            group.addTask { try? await parts.shutdown.waitForSignals(2) }
            await group.next()
            group.cancelAll()
        }
    }
}
