import FoundationEssentials
import LinkdConfig
import LinkdFormats
package import LinkdSystem
import LinkdWire

/// The `exec` action: the app's program gets the route as one JSON object on standard input, with the real values,
/// and nothing secret in its argv or environment. Until it has read all of it, it has the time limit (SIGTERM, then
/// SIGKILL 5 s later); once it has, the link is delivered and leaves the spool, and the program may run as long as it
/// likes — it outlives the daemon, and its link is never replayed. What it writes goes to the log, redacted
/// (``ProgramSupervisor``).
struct ExecAction: Action {
    /// `{"exec": [program, argument…]}`: the argv, whose first word is the program's absolute path as
    /// ``ProgramSearch`` found it when the configuration was read, so that exactly that file runs (or, when it was not
    /// found, the name as written, which is never run).
    struct Settings: ActionSettings {
        static let keyword = "exec"
        static let example = #"{"exec": [argv…]}"#
        let argv: [String]

        static func decode(_ value: JSONValue?, at path: String, with decoder: inout AppConfigDecoder) -> Self? {
            decoder.programArgv(value, at: path).map(Settings.init)
        }

        var json: JSONValue { .object([("exec", .array(argv.map { .string($0) }))]) }
        var summary: String { "exec " + ShellWords.display(argv) }
    }

    /// Each program is its own: a replay starts several at once.
    static let replaysSideBySide = true

    /// How long a program may take to read its link (`LINKD_EXEC_TIME_LIMIT`).
    let timeLimit: Duration
    let supervisor: ProgramSupervisor

    /// Whether the program was found when the configuration was read and can still be run.
    func canTakeNow(_ link: ClaimedLink, context: ActionContext) async -> Bool {
        link.claim.action.settings(as: Settings.self).map { Self.canRun($0.argv) } ?? false
    }

    /// Whether `argv`'s program is a file found by its absolute path that this process may run.
    static func canRun(_ argv: [String]) -> Bool {
        guard let program = argv.first, program.hasPrefix("/") else { return false }
        return FileSystem.isExecutable(program)
    }

    func open(_ link: ClaimedLink, client: (any LinkClient)?, context: ActionContext) async -> WireProtocol.Response {
        guard link.claim.action.settings(as: Settings.self) != nil else { preconditionFailure("an exec link") }
        if let joined = await context.flights.joinOrStart(link.flightKey) { return joined }
        let slots = supervisor.slots
        guard await slots.take() else {
            // Cancelled while it waited: the daemon's stop ran out of time, and nothing was done with the link.
            if Task.isCancelled { return await fail(.daemonStopping, link: link, context: context) }
            context.log.warning(
                "a link for \(link.appName) was refused: \(slots.limit) programs are running",
                [("LINKD_APP", link.appName), ("LINKD_ROUTE", link.route.id)]
            )
            return await fail(.tooManyPrograms(limit: slots.limit), link: link, context: context)
        }
        let entry: Spool.Entry
        do throws(WireProtocol.Failure) {
            entry = try context.record(link.url, kind: .exec(program: nil))
        } catch {
            slots.give()
            return await fail(error, link: link, context: context)
        }
        context.log.info("link \(entry.shortID) accepted for \(link.appName): \(link.route.id)", link.logFields(entry))
        return await deliver(link: link, entry: entry, context: context)
    }

    func replay(_ entry: Spool.Entry, link: ClaimedLink?, context: ActionContext) async {
        // The program started for it never read all of the link (it would have left the spool): it is ended first.
        if let program = entry.kind.execProgram, program.isRunning {
            program.kill()
            context.log.notice("link \(entry.shortID): the program (pid \(program.pid)) that had not read it was ended")
        }
        guard let link, link.claim.action.settings(as: Settings.self) != nil else {
            context.log.warning("link \(entry.shortID) no longer routes to a program and is dropped")
            context.spool.remove(entry.id)
            return
        }
        // A slot first, so that a link left for the next daemon (none came free) has not used up its replay.
        let slots = supervisor.slots
        guard await slots.take() else {
            context.log.warning(
                "link \(entry.shortID) stays in the spool for the next daemon: \(slots.limit) programs are running",
                link.logFields(entry)
            )
            return
        }
        guard let again = context.markReplayed(entry),
            await context.flights.joinOrStart(link.flightKey) == nil
        else {
            slots.give()
            // Dropped after two replays, or a repeat of the same link, which is in flight already.
            context.spool.remove(entry.id)
            return
        }
        context.log.notice("link \(entry.shortID) replayed after a crash", link.logFields(entry))
        _ = await deliver(link: link, entry: again, context: context)
    }

    /// Starts the program, hands it the route, and answers once it has read it (or failed to).
    private func deliver(link: ClaimedLink, entry: Spool.Entry, context: ActionContext) async -> WireProtocol.Response {
        guard let arguments = link.claim.action.settings(as: Settings.self)?.argv else {
            preconditionFailure("an exec link")
        }
        let payload = LinkPayload.of(id: entry.id, app: link.appName, route: link.route, url: entry.url)
        let answer = WireProtocol.Response.accepted(route: link.route.id, app: link.appName, state: .delivered)
        return await deliver(payload, to: arguments, answering: answer, link: link, entry: entry, context: context)
    }

    /// Starts `arguments` (the caller holds one of the supervisor's slots), hands it `payload` on standard input,
    /// and gives `answer` once it has read all of it — or the failure, when it could not be started or did not read
    /// it. Either way the link's flight is finished with the answer, and its entry leaves the spool (unless the
    /// daemon stops first). What the program writes is logged with the link's secrets and `secrets` redacted.
    func deliver(
        _ payload: [UInt8],
        to arguments: [String],
        answering answer: WireProtocol.Response,
        secrets: [String] = [],
        link: ClaimedLink,
        entry: Spool.Entry,
        context: ActionContext
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
            let program = try await subprocess.deliver(payload, deadline: .now + timeLimit) { running in
                // Recorded before the program is given anything, so a daemon that dies now leaves a trace of it (a
                // sign-in's entry stays as it is: its replay runs nothing again).
                guard entry.kind.keyword == ExecAction.keyword else { return }
                var started = entry
                started.kind = .exec(program: ProcessIdentity.of(running.pid))
                try? context.spool.write(started)
            }
            context.spool.remove(entry.id)  // delivered: the program has it, and it is never replayed
            context.log.info(
                "link \(entry.shortID) delivered to '\(arguments[0])' (pid \(program.pid))",
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
            return await fail(
                .unavailable(.actionFailed, "\(error)", app: link.appName),
                link: link,
                context: context
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
        return await fail(.unavailable(reason, message, app: link.appName), link: link, context: context)
    }

    /// The answer when the program did not get the link; whoever joined the flight is told the same.
    func fail(
        _ failure: WireProtocol.Failure,
        link: ClaimedLink,
        context: ActionContext
    ) async -> WireProtocol.Response {
        await context.flights.finish(link.flightKey, with: .failed(failure))
        return .failed(failure)
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

extension Spool.Entry.Kind {
    /// A link for an `exec` program that has not read it yet; `program` is the one started for it, once there is one.
    package static func exec(program: ProcessIdentity?) -> Self {
        var memory: [String: Spool.Value] = [:]
        if let program {
            memory["program"] = .object([
                "pid": .integer(Int64(program.pid)), "startTime": .integer(Int64(clamping: program.startTime)),
            ])
        }
        return Self(keyword: ExecAction.keyword, memory: memory)
    }

    /// The program started for an `exec` link, when one was.
    package var execProgram: ProcessIdentity? {
        guard let program = memory["program"]?.object,
            let pid = program["pid"]?.integer.flatMap(Int32.init(exactly:)),
            let startTime = program["startTime"]?.integer.flatMap(UInt64.init(exactly:))
        else { return nil }
        return ProcessIdentity(pid: pid, startTime: startTime)
    }
}
