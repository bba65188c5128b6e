import FoundationEssentials
import LinkdConfig
import LinkdDaemon
import LinkdFormats

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
        var connected = false
        var worst = ExitCode.success
        for (number, bytes) in LinkInput(arguments: urls, console: console).enumerated() {
            let input = String(decoding: bytes, as: UTF8.self)
            let request = WireProtocol.Request.open(url: input, interactive: prompt.source != nil).line
            var response: DaemonClient.Response?
            var gavePassword = false
            // Sent again once on a dropped connection, but never after a password went out for it: the reset may
            // have happened, and a second run would ask (and perhaps send) again.
            for _ in 0..<2 where response == nil && !gavePassword {
                if !connected {
                    do {
                        try client.connect()
                        connected = true
                    } catch {
                        throw .failed("\(error)", exitCode: max(worst, .unavailable))
                    }
                }
                response = client.exchange(request) { question in
                    let password = prompt.answer(question)
                    gavePassword = gavePassword || password != nil
                    return password
                }
                if response == nil {
                    client.close()
                    connected = false
                }
            }
            guard let response else {
                let detail =
                    gavePassword ? " during the reset; the password may have changed: try signing in with it" : ""
                console.writeError("Error: link \(number + 1): the daemon closed the connection\(detail)\n")
                worst = max(worst, .temporaryFailure)
                continue
            }
            worst = max(worst, report(response, input: input, number: number + 1, console))
        }
        client.close()
        return worst
    }

    /// Prints one response and returns its exit code.
    private func report(_ response: DaemonClient.Response, input: String, number: Int, _ console: Console) -> ExitCode {
        let object = response.object ?? .null
        let shownInput = LinkRedactor.redact(input)
        if object["ok"]?.boolValue == true {
            let route = object["route"]?.stringValue ?? ""
            let app = object["app"]?.stringValue
            let state = object["state"]?.stringValue ?? "done"
            let message = object["message"]?.stringValue
            if json {
                var members: [(String, JSONValue)] = [
                    ("input", .string(shownInput)), ("ok", .bool(true)), ("route", .string(route)),
                    ("app", app.map(JSONValue.string) ?? .null), ("state", .string(state)),
                ]
                if let message { members.append(("message", .string(message))) }
                console.write(JSONValue.object(members).serialized + "\n")
            } else {
                let target = app.map { " → " + DisplayText.sanitize($0) } ?? ""
                let detail = message.map { ": " + DisplayText.sanitize($0) } ?? ""
                console.write("\(state): \(DisplayText.sanitize(route))\(target)\(detail)\n")
            }
            return .success
        }
        let error = object["error"] ?? .null
        let kind = error["kind"]?.stringValue ?? "request"
        let reason = error["reason"]?.stringValue ?? "bad_response"
        let message = error["message"]?.stringValue ?? "the daemon answered '\(response.line.prefix(200))'"
        if json {
            var members: [(String, JSONValue)] = [("kind", .string(kind)), ("reason", .string(reason))]
            if let part = error["part"]?.stringValue { members.append(("part", .string(part))) }
            members.append(("message", .string(message)))
            console.write(
                JSONValue.object([("input", .string(shownInput)), ("ok", .bool(false)), ("error", .object(members))])
                    .serialized + "\n"
            )
        } else {
            console.writeError("Error: link \(number): \(DisplayText.sanitize(message)) [\(reason)]\n")
        }
        switch kind {
        case "unmatched": return .unmatched
        case "invalid", "request", "refused": return .invalid
        case "permission": return .permission
        case "temporary": return .temporaryFailure
        default: return .unavailable
        }
    }
}
