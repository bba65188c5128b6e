import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdWire

/// `linkd open [--json] [--password-stdin] [--code-stdin] URL...`: hands links to the daemon, starting it if needed.
struct OpenCommand: Command {
    static let name = "open"
    static let abstract = "Hand links to the linkd daemon, starting it if needed."
    static let synopsis = Synopsis([
        .optional("--json"), .optional("--password-stdin"), .optional("--code-stdin"), .optional("--web"),
        .arguments(.links),
    ])
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        ARGUMENTS:
          <url>                   A link to open; '-' reads one link per line from standard input.

        \(CommandOption.helpBlock(options))

        A reset link asks for the new password: from standard input with --password-stdin, else on the
        terminal (no echo, asked twice), else through $LINKD_ASKPASS, zenity, kdialog or
        systemd-ask-password (the prompt is its argument, the password its first line of output).
        When the account has a second factor (Supabase MFA), the code of its authenticator app is
        asked for first, the same way (--code-stdin: one line of standard input, before the password's).

        This is what the desktop entry runs (Exec=linkd open %u). The links are overwritten in this
        process's arguments as soon as they are read.

        EXIT STATUS:
          0 delivered (a reset: the password changed), 1 no app claims a link, 64 usage error, 65 a link
          was refused (a reset: the link expired or was used, or the password was refused), 69 the daemon,
          an action or the backend is unavailable, 75 temporary failure (retry later), 77 permission refused.

        """

    static let options: [CommandOption] = [
        .flag("--json", "Print one JSON object per link: the daemon's answer."),
        .flag("--password-stdin", "Answer a password prompt with one line of standard input."),
        .flag("--code-stdin", "Answer a code prompt (a second factor's) with one line of standard input."),
        .flag(
            "--web",
            "The links were clicked (linkd-web.desktop runs this): a link an app's own site assigns to the app goes to "
                + "it, every other one opens in the browser."
        ),
    ]

    var json: Bool
    var passwordFromStdin: Bool
    var codeFromStdin: Bool
    /// Whether the links are clicked web links (`--web`), which go to an app only when its site says so.
    var isWeb: Bool
    var urls: [[UInt8]]

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        urls = try scanner.links(command: Self.name)
        json = scanner.flags.contains("--json")
        passwordFromStdin = scanner.flags.contains("--password-stdin")
        codeFromStdin = scanner.flags.contains("--code-stdin")
        isWeb = scanner.flags.contains("--web")
        if isWeb && urls.contains(Array("-".utf8)) { throw .conflict("--web", "-", command: Self.name) }
        if passwordFromStdin && urls.contains(Array("-".utf8)) {
            throw .conflict("--password-stdin", "-", command: Self.name)
        }
        if codeFromStdin && urls.contains(Array("-".utf8)) { throw .conflict("--code-stdin", "-", command: Self.name) }
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        if isWeb { return try await openWeb(console) }
        let paths: DaemonPaths
        do {
            paths = try DaemonPaths.resolve()
        } catch {
            throw .failed("\(error)", exitCode: .unavailable)
        }
        var client = DaemonClient(paths: paths)
        var prompt = PasswordPrompt(
            passwordFromStdin: passwordFromStdin,
            codeFromStdin: codeFromStdin,
            console: console,
            environment: ProcessInfo.processInfo.environment
        )
        // What --json prints of each link is redacted as `linkd route` redacts it, with the route the installed apps
        // give it: only the route knows which path captures are secrets.
        let resolver =
            json
            ? LinkResolver(apps: ConfigLoader.installed(actions: .linkd).load().apps, fallbackToBuiltIns: true) : nil
        var notice = OutcomeNotice.isNeeded() ? OutcomeNotice() : nil
        let worst = try await openAhead(&client, prompt: &prompt, resolver: resolver, notice: &notice, console)
        client.close()
        await notice?.show()
        return worst
    }

    /// Connects `client`, or throws (after showing the notice) with the worse of `worst` and the connection's exit
    /// code.
    static func connect(
        _ client: inout DaemonClient,
        notice: inout OutcomeNotice?,
        worst: ExitCode
    ) async throws(CommandFailure) {
        do throws(CommandFailure) {
            try await client.connect()
        } catch {
            notice?.record(failure: error.description)
            await notice?.show()
            throw .failed(error.description, exitCode: max(worst, error.exitCode))
        }
    }

    /// Reports link `number` as lost with its connection; returns its exit code (75).
    static func reportClosed(
        number: Int,
        gavePassword: Bool,
        _ notice: inout OutcomeNotice?,
        _ console: Console
    ) -> ExitCode {
        let detail = gavePassword ? " during the reset; the password may have changed: try signing in with it" : ""
        console.writeError(LinkFailureLine.text(link: number, message: "the daemon closed the connection\(detail)"))
        notice?.record(failure: "the daemon closed the connection\(detail)")
        return .temporaryFailure
    }

    /// Prints one response and returns its exit code: the one the failure's kind has. `input` is the link as
    /// `--json` shows it, redacted.
    func report(_ response: WireProtocol.Response, input: String?, number: Int, _ console: Console) -> ExitCode {
        if json {
            let members = [("input", JSONValue.string(input ?? ""))] + response.members
            console.write(JSONValue.object(members).serialized + "\n")
        }
        switch response {
        case .accepted(let route, let app, let state, let message):
            if !json {
                let target = app.map { " → " + DisplayText.sanitize($0) } ?? ""
                let detail = message.map { ": " + DisplayText.sanitize($0) } ?? ""
                console.write("\(state.rawValue): \(DisplayText.sanitize(route))\(target)\(detail)\n")
            }
            return .success
        case .subscribed, .waiting:
            return .success
        case .failed(let failure):
            if !json {
                console.writeError(LinkFailureLine.text(link: number, failure))
            }
            return failure.kind.exitCode
        }
    }
}
