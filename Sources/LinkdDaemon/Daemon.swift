import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdSystem

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
    /// - Returns: the process exit status: 0, 69 when the daemon cannot listen, 75 when another daemon of this user
    ///   already listens (one of several started together wins; the others say so and exit).
    package func run() async -> Int32 {
        ProcessHardening.ignoreBrokenPipes()  // a client or program that goes away is an EPIPE, not the daemon's death
        // Whoever started it (systemd, or the first `linkd open`), the daemon keeps only the documented environment.
        ProcessHardening.replaceEnvironment(with: DaemonEnvironment.filtered(ProcessInfo.processInfo.environment))
        let log = DaemonLog.make()
        let notifier = Notifier()
        let paths: DaemonPaths
        let listener: Listener
        do {
            paths = try DaemonPaths.resolve(socket: options.socket)
            // The rule linkd open applies before it sends a byte: the runtime folder is this user's alone.
            let runtime = paths.userRuntimeDirectory
            if let problem = FileSystem.privacyProblem(ofFolder: runtime, owner: CurrentUser.id) {
                log.error("cannot listen: \(problem); linkd listens only in a private runtime folder")
                try? notifier.notifyStopping()
                return 77
            }
            try FileSystem.makePrivateDirectory(paths.runtimeDirectory)
            let passed = try ListenedSockets.take()
            if let first = passed.first {
                listener = try Listener.adopt(first)
            } else {
                listener = try Listener.bind(path: paths.socket, lockPath: paths.lock)
            }
        } catch Listener.Failure.anotherDaemonIsRunning {
            log.notice("another linkd daemon is already running for this user; this one exits")
            return 75
        } catch {
            log.error("cannot listen: \(error)")
            try? notifier.notifyStopping()
            return 69
        }
        let loader = ConfigLoader.installed(actions: .linkd)
        // Watched before the first read, so that no edit falls between the two.
        let watch = try? FolderWatch(loader.directories.map(\.path))
        let loaded = loader.load()
        for error in loaded.errors { log.warning("config: \(error)") }
        let activity = Activity()
        let shutdown = Shutdown()
        let supervisor = ProgramSupervisor(limits: options.limits)
        let spool = Spool(directory: paths.spool)
        if let problem = spool.problem { log.error("the spool cannot be written, links are refused: \(problem)") }
        let subscriberKeys = SubscriberKeys(directory: paths.runtimeDirectory + "/keys")
        for problem in subscriberKeys.prepare(for: loaded.apps) { log.warning(problem) }
        let associations = AssociationRefresh(
            cache: AssociationCache(folder: XDGDirectories().cacheHome + "/linkd/associations"),
            log: log
        )
        associations.refresh(loaded.apps)
        let service = LinkService(
            resolver: LinkResolver(apps: loaded.apps, fallbackToBuiltIns: false),
            spool: spool,
            log: log,
            activity: activity,
            shutdown: shutdown,
            subscriberKeys: subscriberKeys,
            supervisor: supervisor,
            execTimeLimit: options.execTimeLimit,
            forwardTTL: options.forwardTTL,
            forwardQueueLimit: options.limits.queuedForwardLinks,
            pkceStore: PKCEStore(stateFolder: XDGDirectories().linkdState),
            signInStore: PKCEStore(stateFolder: XDGDirectories().linkdState, purpose: .signIn),
            appleStore: PKCEStore(stateFolder: XDGDirectories().linkdState, purpose: .appleSignIn),
            associations: associations
        )
        let signals = SignalWatch()
        let stops = signals.stops
        let reloads = signals.reloads
        let server = Server(
            listener: listener,
            service: service,
            activity: activity,
            shutdown: shutdown,
            log: log,
            clients: ClientCount(limit: options.limits.clients)
        )
        await withDiscardingTaskGroup { group in
            group.addTask { await supervisor.run(context: service.context) }
            group.addTask { await service.forward.run(context: service.context) }
            group.addTask { await associations.run() }
            group.addTask {
                for await _ in stops { shutdown.signalled() }
            }
            group.addTask {
                for await _ in reloads {
                    log.info("SIGHUP: reading the configuration again")
                    await service.reload(loader)
                }
            }
            if let watch {
                group.addTask {
                    while (try? await watch.nextChange()) != nil {
                        log.info("the configuration changed: reading it again")
                        await service.reload(loader)
                    }
                }
            }
            let left = await service.leftInSpool()
            group.addTask { await service.replay(left) }
            try? notifier.notifyReady(status: "waiting for links (\(loaded.apps.count) apps)")
            log.info(
                "listening on \(listener.ownedPath ?? "the socket passed by systemd") with \(loaded.apps.count) apps"
            )
            group.addTask { await server.run() }
            await stop(when: firstOf(activity, shutdown), server, service, notifier, log)
            group.cancelAll()
        }
        withExtendedLifetime(signals) { listener.releaseLock() }
        return 0
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

    /// The stop's first phase: no new work, running work may finish until the drain deadline or a second signal.
    private func stop(
        when reason: StopReason,
        _ server: Server,
        _ service: LinkService,
        _ notifier: Notifier,
        _ log: DaemonLog
    ) async {
        try? notifier.notifyStopping()
        switch reason {
        case .idle: log.info("idle for \(options.idleExit); exiting")
        case .signal: log.info("stopping: letting running work finish for up to \(options.drainDeadline)")
        }
        server.shutdown.stop()
        await service.forward.dropSessions(service.context)
        let deadline = options.drainDeadline
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await server.activity.waitUntilQuiet() }
            group.addTask { try? await Task.sleep(for: deadline) }
            group.addTask { try? await server.shutdown.waitForSignals(2) }
            await group.next()
            group.cancelAll()
        }
    }
}
