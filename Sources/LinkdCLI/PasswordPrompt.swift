import FoundationEssentials
import LinkdFormats
import LinkdSystem
import LinkdWire

/// Where `linkd open` gets the secrets the daemon asks for — the new password, a code — in order: the next line of
/// standard input for what `--password-stdin` or `--code-stdin` names (one line per question, in the order asked);
/// the terminal when standard input is one (no echo; a password is asked twice; a refused answer is asked again);
/// else an askpass program run like `SSH_ASKPASS`. It never opens `/dev/tty`.
struct PasswordPrompt {
    enum Source: Equatable {
        case terminal
        /// The program and the arguments that come before the prompt.
        case askpass([String])
    }

    /// Where the person answers what standard input does not: the terminal (when standard input is one and answers
    /// nothing) or an askpass program; `nil` when neither can ask.
    let source: Source?
    /// What standard input answers, one line each.
    let fromStandardInput: Set<WireProtocol.SecretQuestion.Asked>
    let console: Console
    /// What was read of standard input beyond the last line taken.
    private var unread: [UInt8] = []
    private var standardInputEnded = false
    /// The askpass program, when it was asked for (for the current link) and cannot be run: not the person
    /// cancelling, but an error.
    var missingAskpass: String?

    init(
        passwordFromStdin: Bool,
        codeFromStdin: Bool = false,
        console: Console,
        environment: [String: String]
    ) {
        self.console = console
        var lines: Set<WireProtocol.SecretQuestion.Asked> = []
        if passwordFromStdin { lines.insert(.password) }
        if codeFromStdin { lines.insert(.code) }
        fromStandardInput = lines
        if lines.isEmpty && FileDescriptor.standardInput.isTerminal {
            source = .terminal
        } else {
            source = Self.askpass(environment: environment).map(Source.askpass)
        }
    }

    /// Whether any question can be answered: by standard input, the terminal or an askpass program.
    var canAnswer: Bool { !fromStandardInput.isEmpty || source != nil }

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

    /// The answer to `question`: a password or code, or `nil` when none can be given (cancelled, standard input
    /// ended, or a refused answer where only a terminal may ask again).
    mutating func answer(_ question: WireProtocol.SecretQuestion) -> Secret? {
        if fromStandardInput.contains(question.asked) {
            guard question.error == nil else { return nil }
            return nextStandardInputLine()
        }
        switch source {
        case nil:
            return nil
        case .terminal:
            if let error = question.error { console.writeError("\(error)\n") }
            switch question.asked {
            case .password: return askTerminal(question.prompt)
            case .code: return readHidden("\(question.prompt): ").flatMap { $0.isEmpty ? nil : Secret($0) }
            }
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

    /// The next line of standard input (at most 4 KiB of it; a CR before its LF dropped); `nil` at its end or for an
    /// empty line.
    private mutating func nextStandardInputLine() -> Secret? {
        while !unread.contains(UInt8(ascii: "\n")) && unread.count <= 4096 && !standardInputEnded {
            let chunk = console.readInput()
            if chunk.isEmpty { standardInputEnded = true } else { unread += chunk }
        }
        guard !unread.isEmpty else { return nil }
        let end = unread.firstIndex(of: UInt8(ascii: "\n")) ?? unread.endIndex
        var line = Array(unread[..<min(end, unread.startIndex + 4097)])
        unread = end < unread.endIndex ? Array(unread[(end + 1)...]) : []
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
