import FoundationEssentials
import LinkdConfig
import LinkdDesktop
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdSystem
import LinkdWeb
import LinkdWire

/// `linkd open --web URL`, what `linkd-web.desktop` runs for a clicked `http` or `https` link: a link an app's own
/// site assigns to the app goes to the daemon, as any link; every other link, and one whose app cannot take it now,
/// opens in the browser linkd replaced. A link that is no app's never reaches the daemon, the log, a notification or
/// the network: the page opening is the outcome.
extension OpenCommand {
    /// The click of one web link (`linkd open --web URL`) that goes to the browser, at once, before the rest of linkd
    /// starts (no thread, nothing else to wait for): the browser takes this process's place. When there is more to do
    /// (a link for the daemon, a loop to report, no browser, a browser that cannot be run), the step decided, for
    /// ``openWeb(_:decided:)``; `nil` for any other command line.
    static func passWebLinkAtOnce(_ arguments: [[UInt8]]) -> (OpenCommand, WebStep)? {
        guard arguments.first == Array("open".utf8),
            let command = try? OpenCommand(parsing: Array(arguments.dropFirst())), command.isWeb,
            command.urls.count == 1
        else { return nil }
        var context = WebContext()
        let step = WebStep.decide(for: command.urls[0], &context, becomesBrowser: true)
        guard case .browser(let url, let recordsPass) = step, let browser = WebBrowser.forWebLinks(context.environment)
        else {
            return (command, step)
        }
        if recordsPass {
            try? context.loopGuard.recordPass(of: url, now: Double(WallClock.seconds), browser: browser.processBecoming)
        }
        _ = try? browser.become(opening: url, environment: context.environment)
        return (command, .browser(url, recordsPass: false))  // it could not be run: the rest says so
    }

    /// Opens each link, one after the other (the first one's step already decided when `decided` is given); returns
    /// the worst exit code.
    func openWeb(_ console: Console, decided: WebStep? = nil) async throws(CommandFailure) -> ExitCode {
        var context = WebContext()
        var worst = ExitCode.success
        for (index, bytes) in urls.enumerated() {
            // The last link's browser takes this process's place, as a launcher would have started it.
            let isLast = index == urls.count - 1
            let step = (index == 0 ? decided : nil) ?? WebStep.decide(for: bytes, &context, becomesBrowser: isLast)
            let code: ExitCode
            switch step {
            case .stop(let url):
                code = await stopLoop(url, console)
            case .browser(let url, let recordsPass):
                let record = recordsPass ? context.loopGuard : nil
                code = await toBrowser(url, record: record, replacing: isLast, context, console)
            case .app(let url, let clicked):
                if let answered = await toApp(url, console) {
                    code = answered
                } else {
                    code = await toBrowser(clicked, record: context.loopGuard, replacing: isLast, context, console)
                }
            }
            worst = max(worst, code)
        }
        return worst
    }

    /// Hands `url` to the daemon for its app, as `linkd open` does any link; `nil` when the app cannot take it now (or
    /// no daemon can be reached): nothing was done with it, and it goes to the browser.
    private func toApp(_ url: String, _ console: Console) async -> ExitCode? {
        guard let paths = try? DaemonPaths.resolve() else { return nil }
        var client = DaemonClient(paths: paths)
        defer { client.close() }
        do throws(CommandFailure) {
            try await client.connect()
        } catch {
            return nil
        }
        var prompt = PasswordPrompt(
            passwordFromStdin: passwordFromStdin,
            codeFromStdin: codeFromStdin,
            console: console,
            environment: ProcessInfo.processInfo.environment
        )
        let request = WireProtocol.Request.open(
            url: url,
            interactive: prompt.canAnswer,
            canConfirm: prompt.canConfirm,
            web: true
        )
        await client.send(request)
        let (received, gavePassword) = await Self.receive(&client, prompt: &prompt)
        var notice = OutcomeNotice.isNeeded() ? OutcomeNotice() : nil
        if case .unread = received { return nil }  // no daemon takes links now: the browser does, as for no app
        guard case .response(let response) = received else {
            let code = Self.reportClosed(number: 1, gavePassword: gavePassword, &notice, console)
            await notice?.show()
            return code
        }
        if let reason = response.failure?.reason, [.appUnavailable, .noApp, .daemonStopping].contains(reason) {
            return nil
        }
        notice?.record(response)
        let code = report(response, input: json ? LinkRedactor.redact(url) : nil, number: 1, console)
        await notice?.show()
        return code
    }

    /// Opens `url` in the browser (``WebBrowser/forWebLinks(_:)``); the pass is recorded in `record` so that a link handed
    /// straight back is known. When `replacing`, the browser takes this process's place (the last link). No browser:
    /// said, exit 69.
    private func toBrowser(
        _ url: String,
        record: WebLoopGuard?,
        replacing: Bool,
        _ context: WebContext,
        _ console: Console
    ) async -> ExitCode {
        guard let browser = WebBrowser.forWebLinks(context.environment) else {
            return await sayNotOpened(
                "no web browser is installed to open the link in; install one and click it again",
                exitCode: .unavailable,
                console
            )
        }
        let now = Double(WallClock.seconds)
        do throws(SystemError) {
            if replacing {
                try? record?.recordPass(of: url, now: now, browser: browser.processBecoming)
                try browser.become(opening: url, environment: context.environment)
            } else {
                let opened = try browser.open(url, environment: context.environment)
                try? record?.recordPass(of: url, now: now, browser: opened)
            }
            return .success
        } catch {
            return await sayNotOpened("\(browser.id) could not be started: \(error)", exitCode: .unavailable, console)
        }
    }

    /// A link that came back from the browser a third time within ``WebLoopGuard/window`` seconds: it stops here.
    private func stopLoop(_ url: String, _ console: Console) async -> ExitCode {
        let host = (try? LinkURL(parsing: Array(url.utf8))).map { $0.hostname } ?? "a site"
        return await sayNotOpened(
            "a link of \(DisplayText.sanitize(host)) came back from the browser three times in 10 seconds; linkd "
                + "stopped passing it on (a browser or app hands it to 'the default browser', which is linkd)",
            exitCode: .temporaryFailure,
            console
        )
    }

    /// Says on standard error and in a notification that a web link was not opened, and why.
    private func sayNotOpened(_ why: String, exitCode: ExitCode, _ console: Console) async -> ExitCode {
        console.writeError("Error: " + why + "\n")
        if OutcomeNotice.isNeeded() {
            var notice = OutcomeNotice()
            notice.record(failure: why)
            await notice.show()
        }
        return exitCode
    }
}
