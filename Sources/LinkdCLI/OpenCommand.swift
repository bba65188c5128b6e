import FoundationEssentials
import LinkdConfig
import LinkdDaemon
import LinkdFormats
import LinkdRouting

/// `linkd open [--json] [--password-stdin] URL...`: hands links to the daemon, starting it if needed.
struct OpenCommand: Command {
    static let name = "open"
    static let abstract = "Hand links to the linkd daemon, starting it if needed."
    static let usage = "linkd open [--json] [--password-stdin] <url> ..."
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        ARGUMENTS:
          <url>                   A link to open; '-' reads one link per line from standard input.

        OPTIONS:
          --json                  Print one JSON object per link: the daemon's answer.
          --password-stdin        Answer a password prompt with one line of standard input.
          -h, --help              Show help information.

        A reset link asks for the new password: from standard input with --password-stdin, else on the
        terminal (no echo, asked twice), else through $LINKD_ASKPASS, zenity, kdialog or
        systemd-ask-password (the prompt is its argument, the password its first line of output).

        This is what the desktop entry runs (Exec=linkd open %u). The links are overwritten in this
        process's arguments as soon as they are read.

        EXIT STATUS:
          0 delivered (a reset: the password changed), 1 no app claims a link, 64 usage error, 65 a link
          was refused (a reset: the link expired or was used, or the password was refused), 69 the daemon,
          an action or the backend is unavailable, 75 temporary failure (retry later), 77 permission refused.

        """

    static let options: [CommandOption] = [.flag("--json"), .flag("--password-stdin")]

    var json: Bool
    var passwordFromStdin: Bool
    var urls: [[UInt8]]

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        urls = try scanner.links(command: Self.name)
        json = scanner.flags.contains("--json")
        passwordFromStdin = scanner.flags.contains("--password-stdin")
        if passwordFromStdin && urls.contains(Array("-".utf8)) {
            throw .conflict("--password-stdin", "-", command: Self.name)
        }
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        let paths: DaemonPaths
        do {
            paths = try DaemonPaths.resolve()
        } catch {
            throw .failed("\(error)", exitCode: .unavailable)
        }
        var client = DaemonClient(paths: paths)
        var prompt = PasswordPrompt(
            passwordFromStdin: passwordFromStdin,
            console: console,
            environment: ProcessInfo.processInfo.environment
        )
        // What --json prints of each link is redacted as `linkd route` redacts it, with the route the installed apps
        // give it: only the route knows which path captures are secrets.
        let resolver = json ? LinkResolver(apps: ConfigLoader.installed().load().apps, fallbackToBuiltIns: true) : nil
        var connected = false
        var worst = ExitCode.success
        var notice = OutcomeNotice.isNeeded() ? OutcomeNotice() : nil
        for (number, bytes) in LinkInput(arguments: urls, console: console).enumerated() {
            let input = String(decoding: bytes, as: UTF8.self)
            let shownInput = resolver.map { RouteOutput.redacted(input, try? $0.resolve(LinkURL(parsing: bytes))) }
            let request = WireProtocol.Request.open(url: input, interactive: prompt.source != nil)
            var response: WireProtocol.Response?
            var gavePassword = false
            prompt.missingAskpass = nil
            // Sent again once on a dropped connection or a daemon that stopped before acting on it, but never after
            // a password went out for it on a dropped connection: the reset may have happened, and a second run
            // would ask (and perhaps send) again.
            for _ in 0..<2 where Self.mayRetry(response, gavePassword: gavePassword) {
                if !connected {
                    do throws(CommandFailure) {
                        try await client.connect()
                        connected = true
                    } catch {
                        notice?.record(failure: error.description)
                        await notice?.show()
                        throw .failed(error.description, exitCode: max(worst, error.exitCode))
                    }
                }
                response = await client.exchange(request) { question in
                    let password = prompt.answer(question)
                    gavePassword = gavePassword || password != nil
                    return password
                }
                if response == nil || response?.failure?.reason == WireProtocol.Failure.daemonStopping.reason {
                    client.close()
                    connected = false
                }
            }
            guard let response else {
                let detail =
                    gavePassword ? " during the reset; the password may have changed: try signing in with it" : ""
                console.writeError("Error: link \(number + 1): the daemon closed the connection\(detail)\n")
                notice?.record(failure: "the daemon closed the connection\(detail)")
                worst = max(worst, .temporaryFailure)
                continue
            }
            if let program = prompt.missingAskpass, response.failure != nil {
                // The password was not given because the askpass program cannot be run: that is the error.
                let failure = WireProtocol.Failure(
                    kind: .unavailable,
                    reason: "askpass_not_found",
                    message: "the askpass program '\(program)' (LINKD_ASKPASS) cannot be found or run; nothing changed"
                )
                notice?.record(.failed(failure))
                worst = max(worst, report(.failed(failure), input: shownInput, number: number + 1, console))
                continue
            }
            notice?.record(response)
            worst = max(worst, report(response, input: shownInput, number: number + 1, console))
        }
        client.close()
        await notice?.show()
        return worst
    }

    /// Whether a link is sent (again): not yet answered, or answered that the daemon stopped before acting on it
    /// (which it says only when nothing was sent); never after a password went out on a dropped connection.
    private static func mayRetry(_ response: WireProtocol.Response?, gavePassword: Bool) -> Bool {
        guard let response else { return !gavePassword }
        return response.failure?.reason == WireProtocol.Failure.daemonStopping.reason
    }

    /// Prints one response and returns its exit code: the one the failure's kind has. `input` is the link as
    /// `--json` shows it, redacted.
    private func report(_ response: WireProtocol.Response, input: String?, number: Int, _ console: Console) -> ExitCode
    {
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
        case .subscribed:
            return .success
        case .failed(let failure):
            if !json {
                console.writeError(
                    "Error: link \(number): \(DisplayText.sanitize(LinkRedactor.redact(failure.message))) [\(failure.reason)]\n"
                )
            }
            return ExitCode(rawValue: failure.kind.exitCode) ?? .unavailable
        }
    }
}
