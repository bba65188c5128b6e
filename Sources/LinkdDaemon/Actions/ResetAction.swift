import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdSystem
import LinkdWire

/// The `reset` action: only for routes that are resets. The link is recorded, the session layer runs against the
/// app's backend, the client is asked for the password, and the result goes back to the client — or to a desktop
/// notification when no client waits any more.
struct ResetAction: Action {
    typealias Settings = ResetSettings

    /// The verifiers of resets requested with `linkd reset request`.
    let pkceStore: PKCEStore?
    /// The apps' windows: the new password and a second factor's code are asked there first, and the result told.
    let appWindow: AppWindow

    /// The reset, ready to run, and the client that answers its password question.
    struct Plan: Sendable {
        let reset: ReadyReset
        let client: any LinkClient
    }

    /// The app's backend takes the link as a reset, and a client can give the new password: checked before anything
    /// is recorded or sent, so that a link refused here stays usable.
    func plan(
        _ link: ClaimedLink,
        client: (any LinkClient)?,
        context: ActionContext
    ) async -> Result<Plan, WireProtocol.Failure> {
        guard let backend = link.claim.backend ?? link.app.backend else {
            return .failure(
                WireProtocol.Failure(kind: .unavailable, reason: .noBackend, message: "\(link.appName) has no backend")
            )
        }
        // Before the client is asked anything: an expired link is that, whoever opened it.
        if let expired = LinkExpiry.failure(link.route) { return .failure(refuse(expired, link, context)) }
        guard let client else {
            context.log.notice("a reset link for \(link.appName) came from a client that cannot give a password")
            return .failure(
                WireProtocol.Failure(
                    kind: .temporary,
                    reason: .noPasswordSource,
                    message: "a reset needs a new password: open the link with 'linkd open'"
                )
            )
        }
        let ready = backend.makeBackend().reset.reset(
            of: link.route.auth,
            routeID: link.route.id,
            app: link.appName,
            verifiers: pkceStore
        )
        switch ready {
        case .success(let reset): return .success(Plan(reset: reset, client: client))
        case .failure(let failure): return .failure(refuse(WireProtocol.Failure(failure), link, context))
        }
    }

    /// A double click joins the first run, before the plan: the first may have used the link's PKCE verifier.
    static let joinsRepeats = true

    func admission(_ plan: Plan, link: ClaimedLink) -> Admission {
        Admission(kind: .reset(sent: false))
    }

    /// Asks for the new password, sends it, and reports the result.
    func run(_ plan: Plan, _ run: LinkRun) async -> Outcome {
        let (entry, context) = (run.entry, run.context)
        let passwords = AppWindowClient(app: run.link.appName, window: appWindow, fallback: plan.client)
        let result = await plan.reset.run(passwords: passwords) { Self.markSent(entry, context: context) }
        await tellApp(result, run.link.appName)
        return await report(result, run, client: plan.client)
    }

    /// The app's subscribers hear how its reset ended: `ResetDone(account)` (masked), or `ResetFailed(reason,
    /// message)` in the words of `linkd open` and the notification.
    private func tellApp(_ result: Result<ResetSuccess, ResetFailure>, _ app: String) async {
        switch result {
        case .success(let success): await appWindow.tell(app, "ResetDone", [.string(success.account)])
        case .failure(let failure):
            let wire = WireProtocol.Failure(failure)
            await appWindow.tell(app, "ResetFailed", [.string(wire.reason.rawValue), .string(wire.message)])
        }
    }

    private func refuse(
        _ failure: WireProtocol.Failure,
        _ link: ClaimedLink,
        _ context: ActionContext
    ) -> WireProtocol.Failure {
        context.log.warning(
            "refused a link at \(link.appName)'s reset: \(failure.message)",
            [("LINKD_ROUTE", link.route.id)]
        )
        return failure
    }

    /// A reset left in the spool by a daemon that stopped is not run again: the person is told to click the link
    /// again (or, when the password may have been sent, to try it).
    func replay(_ entry: Spool.Entry, link: ClaimedLink?, context: ActionContext) async -> Replay<Plan> {
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
        return .handled
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

    /// The outcome, with the desktop notified when the client has gone.
    private func report(
        _ result: Result<ResetSuccess, ResetFailure>,
        _ run: LinkRun,
        client: any LinkClient
    ) async -> Outcome {
        let (link, entry) = (run.link, run.entry)
        let summary: String
        let message: String
        let outcome: Outcome
        switch result {
        case .success(let success):
            summary = "Password changed"
            message = "the password of \(success.account) was changed"
            outcome = Outcome(
                .accepted(route: link.route.id, app: link.appName, state: .done, message: message),
                note: .info("link \(entry.shortID): \(message)")
            )
        case .failure(let failure) where failure.kind == .cancelled && run.context.shutdown.isStopping:
            // The question was cut short by the stop: nothing was sent with a password, and the client, whose
            // connection only stopped being read, is told.
            return .failed(
                .daemonStopping,
                note: .notice("link \(entry.shortID): stopped while waiting for the password")
            )
        case .failure(let failure):
            summary = "Password not changed"
            message = failure.message
            outcome = .failed(WireProtocol.Failure(failure), note: .warning("link \(entry.shortID): \(message)"))
        }
        if await !client.isWaiting {
            await DesktopNotice.show(summary: summary, body: "\(link.appName): \(message)", log: run.context.log)
        }
        return outcome
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
