import FoundationEssentials
import LinkdConfig
import LinkdDesktop
import LinkdSystem
import LinkdWire

/// Starts an app no one is subscribed as, for its `forward` links with `"start": "desktop"`, from its desktop entry
/// `<app>.desktop`: `org.freedesktop.Application.Activate` when the entry is `DBusActivatable` (D-Bus starts the
/// app), else the entry's `Exec` without a link — the link comes by the app's subscription — in a transient unit of
/// its own when the user's service manager answers, as the programs of `exec` links run, else in a session of its
/// own. An app is started once in ``window``: the links that come meanwhile wait for the same start.
final class AppStarter: Sendable {
    static let window = Duration.seconds(30)

    /// How an app was started.
    enum Start: Sendable, Equatable, CustomStringConvertible {
        /// D-Bus activation of its name.
        case activated
        /// Its `Exec`, in the unit named, or (`nil`) as a process of its own.
        case executed(unit: String?)
        /// A start of the app is under way already.
        case underWay

        var description: String {
            switch self {
            case .activated: "by D-Bus activation"
            case .executed(let unit?): "in \(unit)"
            case .executed(nil): "as a process of its own"
            case .underWay: "already being started"
            }
        }
    }

    private let launcher: ProgramLauncher
    private let environment: [String: String]
    private let starts = Lock<[String: ContinuousClock.Instant]>([:])

    init(launcher: ProgramLauncher, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.launcher = launcher
        self.environment = environment
    }

    /// Starts `app` (an apps.d app id, its desktop entry's name), unless a start of it is under way.
    ///
    /// - Returns: how it was started, or why it could not be.
    func start(_ app: String, focus: WireProtocol.Focus? = nil) async -> Result<Start, StartFailure> {
        let now = ContinuousClock.now
        let underWay = starts.withLock { starts in
            if let last = starts[app], now - last < Self.window { return true }
            starts[app] = now
            return false
        }
        if underWay { return .success(.underWay) }
        let result = await launch(app, focus: focus)
        if case .failure = result { starts.withLock { _ = $0.removeValue(forKey: app) } }
        return result
    }

    /// The app subscribed: a later link starts it again when it is gone.
    func subscribed(_ app: String) {
        starts.withLock { _ = $0.removeValue(forKey: app) }
    }

    private func launch(_ app: String, focus: WireProtocol.Focus?) async -> Result<Start, StartFailure> {
        guard let (path, entry) = DesktopEntryFile.find(app + ".desktop", environment: environment) else {
            return .failure(StartFailure("no desktop entry \(app).desktop in the applications folders"))
        }
        if entry.flag("DBusActivatable") {
            let activated = await BlockingCall.run { () -> SystemError? in
                do throws(SystemError) {
                    try SessionBus.activate(appID: app, platformData: focus?.platformData ?? [:], timeout: .seconds(25))
                    return nil
                } catch {
                    return error
                }
            }
            return activated.map { .failure(StartFailure("\(path): D-Bus activation failed: \($0)")) }
                ?? .success(.activated)
        }
        guard let exec = entry["Exec"], let command = try? DesktopExec(parsing: exec, opensURLs: false) else {
            return .failure(StartFailure("\(path) has no Exec= that can be run"))
        }
        var argv = command.argvStarting(name: entry["Name"] ?? "", icon: entry["Icon"], file: path)
        guard !argv.isEmpty else { return .failure(StartFailure("\(path): Exec= names no program")) }
        // Looked up as an exec action's program is: never in the PATH of whoever started the daemon.
        do throws(ProgramSearch.Failure) {
            argv[0] = try ProgramSearch.installed(environment: environment).resolve(argv[0])
        } catch {
            return .failure(StartFailure("\(path): \(error)"))
        }
        return await run(argv, app: app, focus: focus).mapError { StartFailure("\(path): \($0)") }
    }

    /// Runs `argv` with standard streams on /dev/null: in a transient unit when the service manager answers.
    private func run(_ argv: [String], app: String, focus: WireProtocol.Focus?) async -> Result<Start, SystemError> {
        // As a program of an exec link gets it: the daemon's own variables left out, the click's focus in.
        let environment = ProgramDelivery.environment(linkID: nil, focus: focus)
        do throws(SystemError) {
            let null = try FileSystem.openForReading("/dev/null")
            defer { null.close() }
            if await launcher.usesUnits() {
                let name = TransientUnit.name(forApp: app)
                let started = await BlockingCall.run { () -> Result<TransientUnit, SystemError> in
                    Result { () throws(SystemError) in
                        try TransientUnit.start(
                            name: name,
                            description: "linkd: \(app), started for its link",
                            arguments: argv,
                            environment: environment,
                            input: null,
                            output: null
                        )
                    }
                }
                return started.map { _ in .executed(unit: name) }
            }
            var process = Subprocess(argv, environment: environment)
            process.startsNewSession = true
            let running = try process.spawn()
            // Reaped when it exits; it outlives the daemon, whose exit hands it to the system.
            Task { _ = try? await running.exitStatus(deadline: nil, reactor: Reactor.shared) }
            return .success(.executed(unit: nil))
        } catch {
            return .failure(error)
        }
    }
}

/// Why an app could not be started.
struct StartFailure: Error, Sendable, Equatable, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
