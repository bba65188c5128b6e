import FoundationEssentials
import LinkdConfig
import LinkdDesktop
import LinkdFormats
import LinkdSession
import LinkdWire

extension SignInAction {
    /// How far a sign-in got before its session: recorded in the spool (with a program slot), or answered already.
    private enum Admission {
        case recorded(Spool.Entry)
        case answered(WireProtocol.Response)
    }

    /// Signs in with `material` once the link is recorded, asks where `confirmation` says, and delivers the session.
    func signIn(
        _ link: ClaimedLink,
        delivery: Delivery,
        backend: SignInBackend,
        material: SignInMaterial,
        confirmation: Confirmation,
        client: (any LinkClient)?,
        context: ActionContext
    ) async -> WireProtocol.Response {
        let entry: Spool.Entry
        switch await admit(link, delivery: delivery, context: context) {
        case .recorded(let recorded): entry = recorded
        case .answered(let response): return response
        }
        let signedIn: SignInBackend.Session
        switch await Self.session(from: backend, with: material) {
        case .success(let value):
            signedIn = value
        case .failure(let error):
            context.spool.remove(entry.id)
            giveSlot(delivery)
            let failure = WireProtocol.Failure(SignInFailure(error))
            context.log.warning("link \(entry.shortID): not signed in: \(failure.message)", link.logFields(entry))
            return await context.fail(failure, link: link)
        }
        let email = signedIn.account
        let session: SignInBackend.Session
        switch await confirmed(signedIn, confirmation, link, client: client) {
        case .success(let kept):
            session = kept
        case .failure(let refusal):
            return await abandon(
                signedIn,
                why: refusal.why,
                refusal.failure,
                link,
                entry: entry,
                delivery: delivery,
                context: context
            )
        }
        context.log.info(
            "link \(entry.shortID): signed in to \(link.appName) as \(JWTClaims.mask(email))",
            link.logFields(entry)
        )
        let response = await deliver(session, as: email, delivery: delivery, link: link, entry: entry, context: context)
        if let client, await !client.isWaiting, case .accepted = response {
            await DesktopNotice.show(
                summary: "Signed in",
                body: "Signed in to \(link.appName) as \(email).",
                log: context.log
            )
        }
        return response
    }

    /// Room for the session (a forwarded one's queue), a double click joined to the first, a program slot for an
    /// `exec` delivery, and the link recorded in the spool and logged as accepted.
    private func admit(_ link: ClaimedLink, delivery: Delivery, context: ActionContext) async -> Admission {
        if delivery == .forward, await !forward.hasRoom(for: link.appName, context: context) {
            return .answered(refuse(.forwardQueueFull(app: link.appName, limit: forward.queueLimit), link, context))
        }
        if let joined = await context.flights.joinOrStart(link.flightKey) { return .answered(joined) }
        // A program slot for the delivery (a forwarded session waits for its subscriber instead).
        let hasSlot = if delivery == .forward { true } else { await programs.supervisor.slots.take() }
        guard hasSlot else {
            let limit = programs.supervisor.slots.limit
            let failure: WireProtocol.Failure = Task.isCancelled ? .daemonStopping : .tooManyPrograms(limit: limit)
            return .answered(await context.fail(failure, link: link))
        }
        let entry: Spool.Entry
        do throws(WireProtocol.Failure) {
            entry = try context.record(link.url, kind: .signin)
        } catch {
            giveSlot(delivery)
            return .answered(await context.fail(error, link: link))
        }
        context.log.info("link \(entry.shortID) accepted for \(link.appName): \(link.route.id)", link.logFields(entry))
        return .recorded(entry)
    }

    /// The backend's session for `material`, within the backend's time limit.
    private static func session(
        from backend: SignInBackend,
        with material: SignInMaterial
    ) async -> Result<SignInBackend.Session, SessionError> {
        let deadline = ContinuousClock.now + RequestDeadline.backendTimeLimit
        return await RequestDeadline.$current.withValue(deadline) {
            () async -> Result<SignInBackend.Session, SessionError> in
            do throws(SessionError) {
                return .success(try await backend.session(material))
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
        _ signedIn: SignInBackend.Session,
        _ confirmation: Confirmation,
        _ link: ClaimedLink,
        client: (any LinkClient)?
    ) async -> Result<SignInBackend.Session, Refusal> {
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
        _ session: SignInBackend.Session,
        as email: String,
        delivery: Delivery,
        link: ClaimedLink,
        entry: Spool.Entry,
        context: ActionContext
    ) async -> WireProtocol.Response {
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
                link: link,
                entry: entry,
                context: context
            )
        case .forward:
            let state = await forward.session(
                String(decoding: line, as: UTF8.self),
                entry: entry,
                app: link.appName,
                context: context,
                onExpiry: Self.signOutUndelivered(session, app: link.appName, context: context)
            )
            let waits = state == .queued ? "; the session waits until \(link.appName) subscribes" : ""
            let response = WireProtocol.Response.accepted(
                route: link.route.id,
                app: link.appName,
                state: state,
                message: message + waits
            )
            context.log.info(
                "link \(entry.shortID): session " + (state == .queued ? "queued for" : "forwarded to")
                    + " \(link.appName)",
                link.logFields(entry)
            )
            await context.flights.finish(link.flightKey, with: response)
            return response
        }
    }
}
