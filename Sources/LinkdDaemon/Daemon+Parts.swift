import FoundationEssentials
import LinkdConfig
import LinkdSession
import LinkdSystem
import LinkdWeb

extension Daemon {
    /// What the daemon runs beside its server: the link service and the services that keep it (programs, forwarded
    /// links, association files, signals, the configuration's watch), made from the options and the first read of
    /// the configuration.
    struct Parts: Sendable {
        let service: LinkService
        let activity = Activity()
        let shutdown = Shutdown()
        private let supervisor: ProgramSupervisor
        private let associations: AssociationRefresh
        private let log: DaemonLog

        init(options: Options, paths: DaemonPaths, apps: [AppConfig], log: DaemonLog) {
            self.log = log
            supervisor = ProgramSupervisor(limits: options.limits)
            let spool = Spool(directory: paths.spool)
            if let problem = spool.problem { log.error("the spool cannot be written, links are refused: \(problem)") }
            let subscriberKeys = SubscriberKeys(directory: paths.runtimeDirectory + "/keys")
            for problem in subscriberKeys.prepare(for: apps) { log.warning(problem) }
            associations = AssociationRefresh(
                cache: AssociationCache(folder: XDGDirectories().cacheHome + "/linkd/associations"),
                log: log
            )
            associations.refresh(apps)
            let state = XDGDirectories().linkdState
            service = LinkService(
                resolver: LinkResolver(apps: apps, fallbackToBuiltIns: false),
                spool: spool,
                log: log,
                activity: activity,
                shutdown: shutdown,
                subscriberKeys: subscriberKeys,
                supervisor: supervisor,
                execTimeLimit: options.execTimeLimit,
                forwardTTL: options.forwardTTL,
                forwardQueueLimit: options.limits.queuedForwardLinks,
                appWindow: AppWindow(timeLimit: options.appAnswerTimeLimit),
                pkceStore: PKCEStore(stateFolder: state),
                signInStore: PKCEStore(stateFolder: state, purpose: .signIn),
                appleStore: PKCEStore(stateFolder: state, purpose: .appleSignIn),
                associations: associations
            )
        }

        /// The daemon's services, in the order they start (they hear the stop in the reverse order): the program
        /// supervisor, the actions' chores (the `forward` queue's, whose waiting sessions are dropped at the stop), the
        /// association files' refresh, the signals (SIGTERM and SIGINT stop, SIGHUP reloads), the configuration's
        /// watch (`watch`: inotify, or a comparison of the folders), the replay of `replaying` (what a daemon that
        /// stopped left in the spool), the apps' interface on the session bus, and last the server.
        func services(
            server: Server,
            signals: SignalWatch,
            watch: FolderWatch?,
            loader: ConfigLoader,
            replaying left: [Spool.Entry]
        ) -> [DaemonService] {
            let (service, shutdown, log, associations, supervisor) = (service, shutdown, log, associations, supervisor)
            let (stops, reloads) = (signals.stops, signals.reloads)
            let context = service.context
            var services = [DaemonService("programs") { await supervisor.run(context: context) }]
            services += service.actions.chores.map { chores in
                DaemonService(
                    chores.choresName,
                    stopping: { await chores.stopping(context: context) },
                    run: { await chores.runChores(context: context) }
                )
            }
            services += [
                DaemonService("associations") { await associations.run() },
                DaemonService("signals") {
                    for await _ in stops { shutdown.signalled() }
                },
                DaemonService("reload") {
                    for await _ in reloads {
                        log.info("SIGHUP: reading the configuration again")
                        await service.reload(loader)
                    }
                },
            ]
            if let watch {
                services.append(
                    DaemonService("configuration") {
                        while (try? await watch.nextChange()) != nil {
                            log.info("the configuration changed: reading it again")
                            await service.reload(loader)
                        }
                    }
                )
            }
            services.append(DaemonService("replay") { await service.replay(left) })
            let interface = AppInterface(service: service)
            services.append(
                DaemonService("apps' interface", stopping: { await interface.stop() }) { await interface.run() }
            )
            services.append(DaemonService("server", stopping: { shutdown.stop() }, run: { await server.run() }))
            return services
        }
    }
}
