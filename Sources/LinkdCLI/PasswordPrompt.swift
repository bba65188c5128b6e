import FoundationEssentials
import Glibc
import LinkdDaemon
import LinkdFormats
import LinkdSystem

/// Where `linkd open` gets the new password the daemon asks for, in order: one line of standard input
/// with `--password-stdin`; the terminal when standard input is one (no echo, asked twice; a refused password is
/// asked again); else an askpass program run like `SSH_ASKPASS`. It never opens `/dev/tty`.
struct PasswordPrompt {
    enum Source: Equatable {
        case standardInput
        case terminal
        /// The program and the arguments that come before the prompt.
        case askpass([String])
    }

    let source: Source?
    let console: Console
    private var stdinUsed = false

    init(passwordFromStdin: Bool, console: Console, environment: [String: String]) {
        self.console = console
        if passwordFromStdin {
            source = .standardInput
        } else if isatty(STDIN_FILENO) == 1 {
            source = .terminal
        } else {
            source = Self.askpass(environment: environment).map(Source.askpass)
        }
    }

    /// The askpass command: `$LINKD_ASKPASS`, else zenity, kdialog or systemd-ask-password from `PATH`.
    static func askpass(environment: [String: String]) -> [String]? {
        if let program = environment["LINKD_ASKPASS"], !program.isEmpty { return [program] }
        let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        func find(_ name: String) -> String? {
            path.map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
        }
        if let zenity = find("zenity") { return [zenity, "--password", "--title"] }
        if let kdialog = find("kdialog") { return [kdialog, "--password"] }
        if let ask = find("systemd-ask-password") { return [ask] }
        return nil
    }

    /// The answer to `question`: a password, or `nil` when none can be given (cancelled, standard input already read,
    /// or a refused password where only a terminal may ask again).
    mutating func answer(_ question: WireProtocol.PasswordQuestion) -> Secret? {
        switch source {
        case nil:
            return nil
        case .standardInput:
            guard !stdinUsed else { return nil }
            stdinUsed = true
            return readStandardInputLine()
        case .terminal:
            if let error = question.error { console.writeError("\(error)\n") }
            return askTerminal(question.prompt)
        case .askpass(let command):
            guard question.error == nil else { return nil }
            return Askpass.run(command + ["linkd: " + question.prompt])
        }
    }

    private func readStandardInputLine() -> Secret? {
        var line: [UInt8] = []
        while line.count <= 4096 {
            let chunk = console.readInput()
            guard !chunk.isEmpty else { break }
            if let newline = chunk.firstIndex(of: UInt8(ascii: "\n")) {
                line += chunk[..<newline]
                break
            }
            line += chunk
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line.isEmpty ? nil : Secret(String(decoding: line, as: UTF8.self))
    }

    /// Asks on the terminal twice without echo, until both agree (three tries).
    private func askTerminal(_ prompt: String) -> Secret? {
        for _ in 0..<3 {
            guard let first = readHidden("\(prompt): "), !first.isEmpty else { return nil }
            guard let second = readHidden("Repeat the new password: ") else { return nil }
            if first == second { return Secret(first) }
            console.writeError("The passwords do not match; try again.\n")
        }
        return nil
    }

    private func readHidden(_ prompt: String) -> String? {
        var saved = termios()
        let isTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if isTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        console.writeError(prompt)  // after echo is off, so nothing typed on seeing it is shown
        defer {
            if isTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            console.writeError("\n")
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }
}

/// Runs an askpass program: the prompt is its last argument, the password its standard output up to the first
/// newline, and a non-zero exit means the person cancelled.
enum Askpass {
    static func run(_ arguments: [String]) -> Secret? {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { return nil }  // closefrom(3) in the child drops both ends there
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        SpawnAttributes.closeInherited(&actions)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = SpawnAttributes.withClean { attributes in
            arguments[0].hasPrefix("/")
                ? posix_spawn(&pid, arguments[0], &actions, attributes, argv, environ)
                : posix_spawnp(&pid, arguments[0], &actions, attributes, argv, environ)
        }
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while output.count < 8192 {
            let count = read(pipe[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { return nil }  // exited non-zero or killed: cancelled
        let line = output.prefix { $0 != UInt8(ascii: "\n") }
        return line.isEmpty ? nil : Secret(String(decoding: line, as: UTF8.self))
    }
}
