import FoundationEssentials
import LinkdConfig
import LinkdSystem
import LinkdWire

/// How a program gets a link or a session (the `exec` action, and a sign-in that hands its session to a program):
/// started in one of the supervisor's slots (in a transient unit of its own where the user's service manager answers,
/// ``ProgramLauncher``), it gets its payload on standard input and has the time limit to read it all (SIGTERM, then
/// SIGKILL 5 s later); once it has, it is watched (``ProgramSupervisor``) and may run as long as it likes.
struct ProgramDelivery: Sendable {
    /// How long a program may take to read its link (`LINKD_EXEC_TIME_LIMIT`).
    let timeLimit: Duration
    let supervisor: ProgramSupervisor
    let launcher: ProgramLauncher

    /// Starts `arguments` (the caller holds one of the supervisor's slots), hands it `payload` on standard input,
    /// and gives `answer` once it has read all of it — or the failure, when it could not be started or did not read
    /// it. Either way the link's flight is finished with the answer, and its entry leaves the spool (unless the
    /// daemon stops first). What the program writes is logged with the link's secrets and `secrets` redacted.
    /// `started` runs once the program runs, before it is given anything.
    func deliver(
        _ payload: [UInt8],
        to arguments: [String],
        answering answer: WireProtocol.Response,
        secrets: [String] = [],
        link: ClaimedLink,
        entry: Spool.Entry,
        context: ActionContext,
        started: @escaping @Sendable (_ pid: Int32) -> Void = { _ in }
    ) async -> WireProtocol.Response {
        guard arguments[0].hasPrefix("/"), FileSystem.isExecutable(arguments[0]) else {
            // Not found when the configuration was read (or gone since): nothing is run for the link.
            return await notRun(
                .programNotFound,
                "cannot be found",
                arguments[0],
                link: link,
                entry: entry,
                context: context
            )
        }
        do throws(TrustedPath.Failure) {
            // Checked again at the click: a program that appeared or was replaced since the configuration was read.
            _ = try TrustedPath(checking: arguments[0])
        } catch {
            return await notRun(
                .programNotTrusted,
                "is not trusted: \(error)",
                arguments[0],
                link: link,
                entry: entry,
                context: context
            )
        }
        var subprocess = Subprocess(arguments, environment: Self.environment(linkID: entry.id), directory: "/")
        subprocess.output = .pipe
        subprocess.errorOutput = .sameAsOutput
        do {
            let program = try await Subprocess.deliver(
                payload,
                deadline: .now + timeLimit,
                start: { input in try await launcher.start(subprocess, app: link.appName, input: input) },
                started: { running in started(running.pid) }
            )
            context.spool.remove(entry.id)  // delivered: the program has it, and it is never replayed
            context.log.info(
                "link \(entry.shortID) delivered to '\(arguments[0])' (\(program.identity))",
                link.logFields(entry)
            )
            await context.flights.finish(link.flightKey, with: answer, keepingItOpen: true)
            supervisor.watch(program, name: arguments[0], link: link, entry: entry, secrets: secrets)
            return answer
        } catch {
            if Task.isCancelled {
                // The daemon is stopping before the program read the link: the link stays for the next daemon.
                context.log.notice("link \(entry.shortID): the daemon stopped before the program read it")
            } else {
                context.spool.remove(entry.id)
                context.log.warning(
                    "link \(entry.shortID) not delivered to '\(arguments[0])': \(error)",
                    link.logFields(entry)
                )
            }
            supervisor.slots.give()
            return await context.fail(
                .unavailable(.actionFailed, "\(error)", app: link.appName),
                link: link
            )
        }
    }

    /// The answer when `program` is not run for the link (`reason`; `problem` says why, after the program's name):
    /// its entry leaves the spool, its slot is given back, and the failure is logged and answered.
    private func notRun(
        _ reason: WireProtocol.Reason,
        _ problem: String,
        _ program: String,
        link: ClaimedLink,
        entry: Spool.Entry,
        context: ActionContext
    ) async -> WireProtocol.Response {
        context.spool.remove(entry.id)
        context.log.warning("link \(entry.shortID): the program '\(program)' \(problem)", link.logFields(entry))
        supervisor.slots.give()
        let message = "the program '\(program)' \(problem); run 'linkd check'"
        return await context.fail(.unavailable(reason, message, app: link.appName), link: link)
    }

    /// Whether `argv`'s program is a file found by its absolute path that this process may run.
    static func canRun(_ argv: [String]) -> Bool {
        guard let program = argv.first, program.hasPrefix("/") else { return false }
        return FileSystem.isExecutable(program)
    }

    /// The daemon's environment (what ``DaemonEnvironment`` keeps) without what belongs to the daemon alone, with
    /// the fixed program search path (never that of whichever client started the daemon), plus `LINKD_LINK_ID`.
    static func environment(linkID: String) -> [String: String] {
        var environment = DaemonEnvironment.filtered(ProcessInfo.processInfo.environment)
        for key in [
            "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC",
            "JOURNAL_STREAM", "INVOCATION_ID", "MANAGERPID", "SYSTEMD_EXEC_PID",
        ] {
            environment.removeValue(forKey: key)
        }
        environment["LINKD_LINK_ID"] = linkID
        return environment
    }
}

extension WireProtocol.Failure {
    /// The app could not take the link (69): its program is missing, or did not read the link.
    fileprivate static func unavailable(_ reason: WireProtocol.Reason, _ message: String, app: String) -> Self {
        Self(kind: .unavailable, reason: reason, message: "\(app): \(message)")
    }
}
