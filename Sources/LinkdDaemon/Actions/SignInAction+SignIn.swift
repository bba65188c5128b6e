import FoundationEssentials
import LinkdConfig
import LinkdDesktop
import LinkdFormats
import LinkdSession
import LinkdWire

extension SignInAction {
    /// Signs in with the plan's material once the link is recorded, asks where its confirmation says, and delivers
    /// the session.
    func signIn(_ signIn: SignIn, _ run: LinkRun) async -> Outcome {
        let (link, entry) = (run.link, run.entry)
        let signedIn: SignedInSession
        switch await Self.session(of: signIn.ready) {
        case .success(let value):
            signedIn = value
        case .failure(let error):
            let failure = WireProtocol.Failure(SignInFailure(error))
            return .failed(failure, note: .warning("link \(entry.shortID): not signed in: \(failure.message)"))
        }
        let email = signedIn.account
        let session: SignedInSession
        switch await confirmed(signedIn, signIn.confirmation, link, client: run.client) {
        case .success(let kept): session = kept
        case .failure(let refusal): return await abandon(signedIn, why: refusal.why, refusal.failure, run)
        }
        run.context.log.info(
            "link \(entry.shortID): signed in to \(link.appName) as \(JWTClaims.mask(email))",
            link.logFields(entry)
        )
        var outcome = await deliver(session, as: email, delivery: signIn.delivery, run)
        guard let client = run.client, case .accepted = outcome.response else { return outcome }
        // Once the pipeline has answered: the notice holds neither the entry nor the flight.
        let log = run.context.log
        outcome.afterwards = {
            guard await !client.isWaiting else { return }
            await DesktopNotice.show(summary: "Signed in", body: "Signed in to \(link.appName) as \(email).", log: log)
        }
        return outcome
    }

    /// The session `ready` signs in, within the backend's time limit.
    private static func session(of ready: ReadySignIn) async -> Result<SignedInSession, SessionError> {
        let deadline = ContinuousClock.now + RequestDeadline.backendTimeLimit
        return await RequestDeadline.$current.withValue(deadline) { () async -> Result<SignedInSession, SessionError> in
            do throws(SessionError) {
                return .success(try await ready.run())
            } catch {
                return .failure(error)
            }
        }
    }

    /// Why a signed-in session is not kept: what the log says, and the failure the link gets.
    private struct Refusal: Error {
        let why: String
        let failure: WireProtocol.Failure
    }

    /// The session to deliver: confirmed by the person where `confirmation` says to ask, and stepped up to a second
    /// factor when the account has one.
    private func confirmed(
        _ signedIn: SignedInSession,
        _ confirmation: Confirmation,
        _ link: ClaimedLink,
        client: (any LinkClient)?
    ) async -> Result<SignedInSession, Refusal> {
        let email = signedIn.account
        if await !isConfirmed(confirmation, app: link.appName, email: email, client: client) {
            let failure = WireProtocol.Failure(
                kind: .refused,
                reason: .notConfirmed,
                message: "the sign-in to \(link.appName) as \(email) was not confirmed; nothing was delivered"
            )
            let why = "the sign-in to \(link.appName) as \(JWTClaims.mask(email)) was not confirmed"
            return .failure(Refusal(why: why, failure: failure))
        }
        switch await signedIn.steppedUp(app: link.appName, codes: client) {
        case .success(let stronger):
            return .success(stronger)
        case .failure(let failure):
            return .failure(Refusal(why: "not signed in: \(failure.message)", failure: .init(failure)))
        }
    }

    /// Hands the session to the app's program, or to its subscriber (or its queue until it subscribes).
    private func deliver(
        _ session: SignedInSession,
        as email: String,
        delivery: Delivery,
        _ run: LinkRun
    ) async -> Outcome {
        let (link, entry) = (run.link, run.entry)
        // Apple gives the person's name at the first sign-in only, and its rules forbid asking again: it goes along.
        let name: PersonName? = if case .appleCallback(let callback) = link.route.auth { callback.name } else { nil }
        let line = session.delivery(id: entry.id, app: link.appName, route: link.route.id, name: name)
        let message = "signed in: \(link.appName) as \(email)"
        switch delivery {
        case .exec(let arguments):
            return await programs.deliver(
                line,
                to: arguments,
                answering: .accepted(route: link.route.id, app: link.appName, state: .done, message: message),
                secrets: session.secretValues,
                run: run
            )
        case .forward:
            let state = await forward.session(
                String(decoding: line, as: UTF8.self),
                entry: entry,
                app: link.appName,
                focus: link.focus,
                context: run.context,
                onExpiry: Self.signOutUndelivered(session, app: link.appName, context: run.context)
            )
            let waits = state == .queued ? "; the session waits until \(link.appName) subscribes" : ""
            let response = WireProtocol.Response.accepted(
                route: link.route.id,
                app: link.appName,
                state: state,
                message: message + waits
            )
            let handed = state == .queued ? "queued for" : "forwarded to"
            return Outcome(response, .handedOn, note: .info("link \(entry.shortID): session \(handed) \(link.appName)"))
        }
    }
}
