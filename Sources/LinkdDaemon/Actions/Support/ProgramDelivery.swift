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

    /// Starts `arguments` for `run`'s link (the pipeline holds one of the supervisor's slots for it), hands it
    /// `payload` on standard input, and answers `answer` once it has read all of it — or the failure, when it could
    /// not be started or did not read it. What the program writes is logged with the link's secrets and `secrets`
    /// redacted. `started` runs once the program runs, before it is given anything.
    func deliver(
        _ payload: [UInt8],
        to arguments: [String],
        answering answer: WireProtocol.Response,
        secrets: [String] = [],
        run: LinkRun,
        started: @escaping @Sendable (_ pid: Int32) -> Void = { _ in }
    ) async -> Outcome {
        let (link, entry) = (run.link, run.entry)
        guard arguments[0].hasPrefix("/"), FileSystem.isExecutable(arguments[0]) else {
            // Not found when the configuration was read (or gone since): nothing is run for the link.
            return Self.notRun(.programNotFound, "cannot be found", arguments[0], run)
        }
        do throws(TrustedPath.Failure) {
            // Checked again at the click: a program that appeared or was replaced since the configuration was read.
            _ = try TrustedPath(checking: arguments[0])
        } catch {
            return Self.notRun(.programNotTrusted, "is not trusted: \(error)", arguments[0], run)
        }
        var subprocess = Subprocess(
            arguments,
            environment: Self.environment(linkID: entry.id, focus: link.focus),
            directory: "/"
        )
        subprocess.output = .pipe
        subprocess.errorOutput = .sameAsOutput
        do {
            let program = try await Subprocess.deliver(
                payload,
                deadline: .now + timeLimit,
                start: { input in try await launcher.start(subprocess, app: link.appName, input: input) },
                started: { running in started(running.pid) }
            )
            let watch: @Sendable () -> Void = { [supervisor] in
                supervisor.watch(program, name: arguments[0], run: run, secrets: secrets)
            }
            return Outcome(
                answer,
                .running(watch: watch),
                note: .info("link \(entry.shortID) delivered to '\(arguments[0])' (\(program.identity))")
            )
        } catch {
            let failure = WireProtocol.Failure.unavailable(.actionFailed, "\(error)", app: link.appName)
            if Task.isCancelled {
                // The daemon is stopping before the program read the link: the link stays for the next daemon.
                let note = "link \(entry.shortID): the daemon stopped before the program read it"
                return Outcome(.failed(failure), .interrupted, note: .notice(note))
            }
            return .failed(
                failure,
                note: .warning("link \(entry.shortID) not delivered to '\(arguments[0])': \(error)")
            )
        }
    }

    /// The outcome when `program` is not run for `run`'s link (`reason`; `problem` says why, after the program's
    /// name).
    private static func notRun(
        _ reason: WireProtocol.Reason,
        _ problem: String,
        _ program: String,
        _ run: LinkRun
    ) -> Outcome {
        let message = "the program '\(program)' \(problem); run 'linkd check'"
        return .failed(
            .unavailable(reason, message, app: run.link.appName),
            note: .warning("link \(run.entry.shortID): the program '\(program)' \(problem)")
        )
    }

    /// Whether `argv`'s program is a file found by its absolute path that this process may run.
    static func canRun(_ argv: [String]) -> Bool {
        guard let program = argv.first, program.hasPrefix("/") else { return false }
        return FileSystem.isExecutable(program)
    }

    /// The daemon's environment (what ``DaemonEnvironment`` keeps) without what belongs to the daemon alone, with
    /// the fixed program search path (never that of whichever client started the daemon), plus `LINKD_LINK_ID` and the
    /// click's focus (`XDG_ACTIVATION_TOKEN`, `DESKTOP_STARTUP_ID`), when it came with one.
    static func environment(linkID: String?, focus: WireProtocol.Focus? = nil) -> [String: String] {
        var environment = DaemonEnvironment.filtered(ProcessInfo.processInfo.environment)
        for key in [
            "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC",
            "JOURNAL_STREAM", "INVOCATION_ID", "MANAGERPID", "SYSTEMD_EXEC_PID",
        ] {
            environment.removeValue(forKey: key)
        }
        environment["LINKD_LINK_ID"] = linkID
        environment.merge(focus?.environment ?? [:]) { $1 }
        return environment
    }
}

extension WireProtocol.Failure {
    /// The app could not take the link (69): its program is missing, or did not read the link.
    fileprivate static func unavailable(_ reason: WireProtocol.Reason, _ message: String, app: String) -> Self {
        Self(kind: .unavailable, reason: reason, message: "\(app): \(message)")
    }
}
