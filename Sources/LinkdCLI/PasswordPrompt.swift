import FoundationEssentials
import LinkdFormats
import LinkdSystem
import LinkdWire

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
    /// The askpass program, when it was asked for (for the current link) and cannot be run: not the person
    /// cancelling, but an error.
    var missingAskpass: String?

    init(passwordFromStdin: Bool, console: Console, environment: [String: String]) {
        self.console = console
        if passwordFromStdin {
            source = .standardInput
        } else if FileDescriptor.standardInput.isTerminal {
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
            path.map { "\($0)/\(name)" }.first(where: FileSystem.isExecutable)
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
            guard Askpass.canRun(command[0]) else {
                missingAskpass = command[0]
                return nil
            }
            // A dialog may read its text as markup: what came from a backend (the account) is shown as text.
            return Askpass.run(command + ["linkd: " + DisplayText.escapeMarkup(question.prompt)])
        }
    }

    /// Whether the person can be asked to confirm a sign-in: only on a terminal (an askpass program asks for a
    /// password, and standard input may be a script's).
    var canConfirm: Bool { source == .terminal }

    /// Asks the person on the terminal to confirm `question` (a sign-in linkd did not start): yes only for `y` or
    /// `yes`.
    func confirm(_ question: WireProtocol.ConfirmQuestion) -> Bool {
        guard canConfirm else { return false }
        console.writeError("\(question.prompt) [y/N] ")
        guard let line = FileDescriptor.standardInput.readLine() else { return false }
        let answer = String(decoding: line, as: UTF8.self).lowercased().filter { !$0.isWhitespace }
        return answer == "y" || answer == "yes"
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
        let line = FileDescriptor.standardInput.withoutEcho {
            console.writeError(prompt)  // after echo is off, so nothing typed on seeing it is shown
            return FileDescriptor.standardInput.readLine()
        }
        console.writeError("\n")
        return line.map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Runs an askpass program: the prompt is its last argument, the password its standard output up to the first
/// newline, and a non-zero exit means the person cancelled.
enum Askpass {
    /// Whether `program` (`$LINKD_ASKPASS` as given: a path, or a name looked up on `PATH`) can be run.
    static func canRun(_ program: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        FileSystem.canRun(program, searchPath: environment["PATH"])
    }

    static func run(_ arguments: [String]) -> Secret? {
        var askpass = Subprocess(arguments, environment: ProcessInfo.processInfo.environment)
        askpass.errorOutput = .descriptor(.standardError)
        // Exited non-zero, killed, or could not start (127): cancelled.
        guard let (status, output) = try? askpass.run(outputLimit: 8_192), status == 0 else { return nil }
        let line = output.prefix { $0 != UInt8(ascii: "\n") }
        return line.isEmpty ? nil : Secret(String(decoding: line, as: UTF8.self))
    }
}
