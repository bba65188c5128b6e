import FoundationEssentials
import LinkdConfig
import LinkdDaemon
import LinkdDesktop
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdSystem
import LinkdWire

/// `linkd open --web URL`, what `linkd-web.desktop` runs for a clicked `http` or `https` link: a link an app's own
/// site assigns to the app goes to the daemon, as any link; every other link, and one whose app cannot take it now,
/// opens in the browser linkd replaced. A link that is no app's never reaches the daemon, the log, a notification or
/// the network: the page opening is the outcome.
extension OpenCommand {
    /// Opens each link, one after the other; returns the worst exit code.
    func openWeb(_ console: Console) async throws(CommandFailure) -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let directories = XDGDirectories(environment: environment)
        let loopGuard = directories.runtimeDirectory.map { WebLoopGuard(folder: $0 + "/linkd") }
        var worst = ExitCode.success
        var apps: [AppConfig]?
        for bytes in urls {
            let text = String(decoding: bytes, as: UTF8.self)
            let now = Double(WallClock.seconds)
            switch (try? loopGuard?.arrive(text, now: now)) ?? .route {
            case .stop:
                worst = max(worst, await stopLoop(text, console))
                continue
            case .browserAgain:
                worst = max(worst, await toBrowser(text, record: nil, environment, console))
                continue
            case .route:
                break
            }
            guard let link = try? LinkURL(parsing: bytes) else {
                worst = max(worst, await toBrowser(text, record: loopGuard, environment, console))
                continue
            }
            if apps == nil { apps = ConfigLoader.installed(environment: environment, actions: .linkd).load().apps }
            let cache = AssociationCache(folder: directories.cacheHome + "/linkd/associations")
            switch WebLinkDecision.decide(link, apps: apps ?? [], cache: cache, now: now) {
            case .browser:
                worst = max(worst, await toBrowser(text, record: loopGuard, environment, console))
            case .app:
                if let code = await toApp(text, console) {
                    worst = max(worst, code)
                } else {
                    worst = max(worst, await toBrowser(text, record: loopGuard, environment, console))
                }
            }
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
            console: console,
            environment: ProcessInfo.processInfo.environment
        )
        let request = WireProtocol.Request.open(
            url: url,
            interactive: prompt.source != nil,
            canConfirm: prompt.canConfirm,
            web: true
        )
        await client.send(request)
        let (response, gavePassword) = await Self.receive(&client, prompt: &prompt)
        var notice = OutcomeNotice.isNeeded() ? OutcomeNotice() : nil
        guard let response else {
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

    /// Opens `url` in the browser: the one `linkd register --web` recorded, else another installed one; the pass is
    /// recorded in `record` so that a link handed straight back is known. No browser: said, exit 69.
    private func toBrowser(
        _ url: String,
        record: WebLoopGuard?,
        _ environment: [String: String],
        _ console: Console
    ) async -> ExitCode {
        let recorded = try? Registrar(environment: environment, actions: .linkd).readWebRegistration()?.browser
        guard let browser = WebBrowser.choose(recorded: recorded, environment: environment) else {
            return await sayNotOpened(
                "no web browser is installed to open the link in; install one and click it again",
                exitCode: .unavailable,
                console
            )
        }
        try? record?.recordPass(of: url, now: Double(WallClock.seconds))
        do throws(SystemError) {
            try browser.open(url, environment: environment)
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
