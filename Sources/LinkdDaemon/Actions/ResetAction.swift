import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdWire

/// The `reset` action: only for routes that are resets. The link is recorded, the session layer runs against the
/// app's backend, the client is asked for the password, and the result goes back to the client — or to a desktop
/// notification when no client waits any more.
struct ResetAction: Action {
    typealias Settings = ResetSettings

    /// The verifiers of resets requested with `linkd reset request`.
    let pkceStore: PKCEStore?

    func open(_ link: ClaimedLink, client: (any LinkClient)?, context: ActionContext) async -> WireProtocol.Response {
        guard let backend = link.claim.backend ?? link.app.backend else {
            return .failed(
                WireProtocol.Failure(
                    kind: .unavailable,
                    reason: .noBackend,
                    message: "\(link.appName) has no backend"
                )
            )
        }
        // Before the client is asked anything: an expired link is that, whoever opened it.
        if let expired = LinkExpiry.failure(link.route) { return refuse(expired, link, context) }
        guard let client else {
            // Checked before anything is sent: a client that cannot answer leaves the link usable.
            context.log.notice("a reset link for \(link.appName) came from a client that cannot give a password")
            return .failed(
                WireProtocol.Failure(
                    kind: .temporary,
                    reason: .noPasswordSource,
                    message: "a reset needs a new password: open the link with 'linkd open'"
                )
            )
        }
        if let joined = await context.flights.joinOrStart(link.flightKey) { return joined }  // a double click joins
        let response = await run(link, backend: backend, client: client, context: context)
        await context.flights.finish(link.flightKey, with: response)
        return response
    }

    private func run(
        _ link: ClaimedLink,
        backend: BackendConfig,
        client: any LinkClient,
        context: ActionContext
    ) async -> WireProtocol.Response {
        let ready = backend.makeBackend().reset.reset(
            of: link.route.auth,
            routeID: link.route.id,
            app: link.appName,
            verifiers: pkceStore
        )
        let reset: ReadyReset
        switch ready {
        case .success(let found): reset = found
        case .failure(let failure): return refuse(WireProtocol.Failure(failure), link, context)
        }
        let entry: Spool.Entry
        do throws(WireProtocol.Failure) {
            entry = try context.record(link.url, kind: .reset(sent: false))
        } catch {
            return .failed(error)
        }
        context.log.info("link \(entry.shortID) accepted for \(link.appName): \(link.route.id)", link.logFields(entry))
        let result = await reset.run(passwords: client) { Self.markSent(entry, context: context) }
        let response = await report(result, entry: entry, link: link, client: client, context: context)
        context.spool.remove(entry.id)
        return response
    }

    private func refuse(
        _ failure: WireProtocol.Failure,
        _ link: ClaimedLink,
        _ context: ActionContext
    )
        -> WireProtocol.Response
    {
        context.log.warning(
            "refused a link at \(link.appName)'s reset: \(failure.message)",
            [("LINKD_ROUTE", link.route.id)]
        )
        return .failed(failure)
    }

    /// A reset left in the spool by a daemon that stopped is not run again: the person is told to click the link
    /// again (or, when the password may have been sent, to try it).
    func replay(_ entry: Spool.Entry, link: ClaimedLink?, context: ActionContext) async {
        context.spool.remove(entry.id)
        let app = link?.appName ?? "an app"
        let body: String
        if entry.kind.resetWasSent {
            body =
                "\(app): linkd stopped while setting your new password; it may have changed. Try signing in "
                + "with it, or request a new email."
        } else {
            body = "\(app): linkd stopped before your password was reset; click the link in the email again."
        }
        context.log.notice("link \(entry.shortID): a reset interrupted by a crash is not replayed")
        await DesktopNotice.show(summary: "Password reset interrupted", body: body, log: context.log)
    }

    /// Records in the spool that the password is about to be sent; `false` (nothing is sent) when it cannot.
    private static func markSent(_ entry: Spool.Entry, context: ActionContext) -> Bool {
        var sent = entry
        sent.kind = .reset(sent: true)
        do {
            try context.spool.write(sent)
            return true
        } catch {
            context.log.error("cannot write the spool: \(error)")
            return false
        }
    }

    /// Logs the outcome, notifies the desktop when the client has gone, and returns the answer.
    private func report(
        _ result: Result<ResetSuccess, ResetFailure>,
        entry: Spool.Entry,
        link: ClaimedLink,
        client: any LinkClient,
        context: ActionContext
    ) async -> WireProtocol.Response {
        let summary: String
        let message: String
        let response: WireProtocol.Response
        switch result {
        case .success(let success):
            summary = "Password changed"
            message = "the password of \(success.account) was changed"
            context.log.info("link \(entry.shortID): \(message)", link.logFields(entry))
            response = .accepted(route: link.route.id, app: link.appName, state: .done, message: message)
        case .failure(let failure) where failure.kind == .cancelled && context.shutdown.isStopping:
            // The question was cut short by the stop: nothing was sent with a password, and the client, whose
            // connection only stopped being read, is told.
            context.log.notice("link \(entry.shortID): stopped while waiting for the password", link.logFields(entry))
            return .failed(.daemonStopping)
        case .failure(let failure):
            summary = "Password not changed"
            message = failure.message
            context.log.warning("link \(entry.shortID): \(message)", link.logFields(entry))
            response = .failed(WireProtocol.Failure(failure))
        }
        if await !client.isWaiting {
            await DesktopNotice.show(summary: summary, body: "\(link.appName): \(message)", log: context.log)
        }
        return response
    }
}

extension Spool.Entry.Kind {
    /// A password reset; `sent` once the request carrying the password may have gone out.
    package static func reset(sent: Bool) -> Self {
        Self(keyword: ResetAction.keyword, memory: sent ? ["sent": .bool(true)] : [:])
    }

    /// Whether a reset's request carrying the password may have gone out.
    package var resetWasSent: Bool { memory["sent"]?.bool ?? false }
}
