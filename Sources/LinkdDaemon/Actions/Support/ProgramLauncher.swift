import LinkdSystem

/// Where the programs of `exec` links (and sign-ins handed to a program) run: each in a transient unit of its own
/// (`app-linkd-<app>@<random>.service` in `app.slice`) when the user's service manager answers on the session bus,
/// as a desktop starts the apps it launches; else as children of the daemon.
final class ProgramLauncher: Sendable {
    /// How programs are started.
    enum Mode: Sendable, Equatable {
        /// In transient units when a service manager answers (asked once, at the first program), else directly.
        case automatic
        /// As the daemon's children.
        case direct
    }

    private let mode: Mode
    /// Whether a manager answered, once asked.
    private let managerAnswers = Lock<Bool?>(nil)

    init(_ mode: Mode = .automatic) {
        self.mode = mode
    }

    /// Whether programs start in transient units: asks the session bus once.
    func usesUnits() async -> Bool {
        guard mode == .automatic else { return false }
        if let known = managerAnswers.withLock({ $0 }) { return known }
        let answers = await BlockingCall.run { TransientUnit.managerAnswers(timeout: .seconds(2)) }
        managerAnswers.withLock { $0 = answers }
        return answers
    }

    /// Starts `arguments` for `app` with `environment` and standard input `input`, its output on a pipe.
    func start(
        _ subprocess: Subprocess,
        app: String,
        input: FileDescriptor
    ) async throws -> any LaunchedProgram {
        if await usesUnits() {
            return try await TransientUnit.launch(
                appID: app,
                arguments: subprocess.arguments,
                environment: subprocess.environment,
                input: input
            )
        }
        var options = subprocess
        options.input = .descriptor(input)
        return try options.spawn()
    }
}
