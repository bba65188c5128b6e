import Dispatch
import FoundationEssentials
import LinkdConfig
import LinkdDesktop
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdSystem

extension LinkService {
    /// The `reset` action: only for routes that are resets; the link is spooled, the session layer runs
    /// against the app's backend, the client is asked for the password, and the result goes back to the client — or
    /// to a desktop notification when no client waits any more.
    func reset(
        _ link: LinkURL,
        app: AppConfig,
        claim: LinkConfig,
        route: RoutedLink,
        client: ClientConnection?
    ) async -> String {
        // `client` is the connection when it can answer a password question, `nil` when it cannot.
        // Between the join check and `startFlight` below nothing may suspend, or two clicks arriving together could
        // both start a run.
        let key = app.app + "\n" + link.href
        if let response = await join(key) { return response }  // a double click joins the first run
        guard let backend = claim.backend ?? app.backend else {
            return WireProtocol.failure(
                WireProtocol.Failure(kind: "unavailable", reason: "no_backend", message: "\(app.app) has no backend")
            )
        }
        guard let client else {
            // Checked before a PKCE verifier is taken: a client that cannot answer leaves the link usable.
            log.notice("a reset link for \(app.app) came from a client that cannot give a password")
            return WireProtocol.failure(
                WireProtocol.Failure(
                    kind: "unavailable",
                    reason: "no_password_source",
                    message: "a reset needs a new password: open the link with 'linkd open'"
                )
            )
        }
        let material: ResetMaterial
        switch resetMaterial(route, app: app.app) {
        case .success(let value): material = value
        case .failure(let failure):
            log.warning("refused a link at \(app.app)'s reset: \(failure.message)", [("LINKD_ROUTE", route.id)])
            return WireProtocol.failure(failure)
        }
        let entry: Spool.Entry
        do {
            entry = try record(link.href, action: "reset")
        } catch {
            return error.response
        }
        startFlight(key)
        log.info("link \(entry.id.prefix(8)) accepted for \(app.app): \(route.id)", fields(entry, app.app, route.id))
        let runner = ResetRunner(
            backend: backend.makeClient(),
            material: material,
            appName: app.app,
            beforeSending: { await self.markSent(entry) }
        )
        let result = await runner.run(passwords: ConnectionPasswords(connection: client))
        let response = await report(result, entry: entry, app: app.app, route: route.id, client: client)
        spool.remove(entry.id)
        finish(key, response: response, delivered: false)
        return response
    }

    /// What the session layer needs from a routed link; any route that is not a reset is refused.
    private func resetMaterial(_ route: RoutedLink, app: String) -> Result<ResetMaterial, WireProtocol.Failure> {
        switch route.auth {
        case .supabaseRecovery(let session):
            return .success(.supabaseSession(accessToken: session.accessToken, refreshToken: session.refreshToken))
        case .supabaseOTP(let otp) where otp.type == "recovery":
            return .success(.supabaseTokenHash(otp.tokenHash, type: otp.type))
        case .supabasePKCE(let pkce):
            guard let verifier = pkceStore?.take(app: app, now: Int64(Date().timeIntervalSince1970)) else {
                return .failure(
                    WireProtocol.Failure(
                        kind: "invalid",
                        reason: "not_a_reset",
                        message:
                            "linkd did not request this reset for \(app) (no stored PKCE verifier, or it was used or "
                            + "expired); request a new email with 'linkd reset request --app \(app) --email ADDR'"
                    )
                )
            }
            return .success(.supabasePKCE(code: pkce.code, verifier: verifier))
        case .appServicesReset(let token):
            return .success(.appServices(token: token.token, tokenID: token.tokenID))
        default:
            // A session of another kind at a reset link may be an attacker's own session mailed to the victim.
            let type = route.auth?.fields["type"].map { " (type \(DisplayText.sanitize($0.description)))" } ?? ""
            return .failure(
                WireProtocol.Failure(
                    kind: "invalid",
                    reason: "not_a_reset",
                    message: "a '\(route.id)'\(type) link is not a password reset; linkd refuses it at a reset link"
                )
            )
        }
    }

    /// Records in the spool that the password is about to be sent; `false` (nothing is sent) when it cannot.
    private func markSent(_ entry: Spool.Entry) -> Bool {
        var sent = entry
        sent.sent = true
        do {
            try spool.write(sent)
            return true
        } catch {
            log.error("cannot write the spool: \(error)")
            return false
        }
    }

    /// Logs the outcome, notifies the desktop when the client has gone, and returns the answer.
    private func report(
        _ result: Result<ResetRunner.Success, ResetFailure>,
        entry: Spool.Entry,
        app: String,
        route: String,
        client: ClientConnection
    ) async -> String {
        let summary: String
        let message: String
        let response: String
        switch result {
        case .success(let success):
            summary = "Password changed"
            message = "the password of \(success.account) was changed"
            log.info("link \(entry.id.prefix(8)): \(message)", fields(entry, app, route))
            response = WireProtocol.success(route: route, app: app, state: "done", message: message)
        case .failure(let failure):
            summary = "Password not changed"
            message = failure.message
            log.warning("link \(entry.id.prefix(8)): \(message)", fields(entry, app, route))
            response = WireProtocol.failure(
                WireProtocol.Failure(kind: failure.wireKind, reason: failure.kind.rawValue, message: message)
            )
        }
        if await !client.isConnected {
            await notify(summary: summary, body: "\(app): \(message)")
        }
        return response
    }

    /// A reset left in the spool by a crash is not run again: the person is told to click the link again (or, when
    /// the password may have been sent, to try it).
    func abandonReset(_ entry: Spool.Entry) async {
        spool.remove(entry.id)
        let app = (try? LinkURL(parsing: entry.url)).flatMap { try? resolver.resolve($0).app?.app } ?? "an app"
        let body: String
        if entry.sent == true {
            body =
                "\(app): linkd stopped while setting your new password; it may have changed. Try signing in "
                + "with it, or request a new email."
        } else {
            body = "\(app): linkd stopped before your password was reset; click the link in the email again."
        }
        log.notice("link \(entry.id.prefix(8)): a reset interrupted by a crash is not replayed")
        await notify(summary: "Password reset interrupted", body: body)
    }

    /// Sends a desktop notification (markup escaped, controls stripped); a failure is logged.
    func notify(summary: String, body: String) async {
        do {
            try await DesktopNotification.show(summary: summary, body: body)
        } catch {
            log.warning("cannot show a desktop notification: \(error)")
        }
    }
}
