import FoundationEssentials
import LinkdConfig
import LinkdDesktop
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdWire

/// The `signin` action: the link becomes a session with the app's backend, and the app's program gets the session
/// (as JSON on standard input, like an `exec` link's route) — never the link's own secrets.
///
/// A sign-in linkd started with an emailed link (`linkd login --email`: a `supabase.pkce` code its stored verifier
/// proves) is signed in at once. One started in the browser (`--provider`) is confirmed by the `linkd login` that
/// waits for it, since its address showed in a browser's command line. One it did not start — a magic link, a signup
/// or invite confirmation, an implicit-flow session that arrives by email — could be an attacker's own account
/// mailed to the person, so that their app signs in to it: it is
/// delivered only once the person has confirmed it ("Sign in to APP as EMAIL?", with the account as the backend
/// names it) on the terminal of `linkd open`, and refused before anything is sent when no one can be asked.
struct SignInAction: Action {
    typealias Settings = SignInSettings

    typealias Delivery = SignInSettings.Delivery

    /// The verifiers of sign-ins started with `linkd login`.
    let pkceStore: PKCEStore?
    /// The secrets of Sign in with Apple started with `linkd login --provider apple`.
    let appleStore: PKCEStore?
    /// Starts the program the session goes to (`{"exec": …}`).
    let programs: ProgramDelivery
    /// Hands the session to the app's subscriber (`"forward"`).
    let forward: ForwardAction
    /// The apps' windows: a subscriber that answers `confirm` confirms its app's sign-ins.
    let appWindow: AppWindow
    /// The `linkd login` commands waiting for their sign-in from the browser, which confirm it.
    let waiters = SignInWaiters()

    /// Whether the session has somewhere to go: the program is there, or (`"forward"`) it waits for the subscriber.
    func canTakeNow(_ link: ClaimedLink, context: ActionContext) async -> Bool {
        switch link.claim.action.settings(as: Settings.self)?.delivery {
        case .exec(let argv): ProgramDelivery.canRun(argv)
        case .forward: true
        case nil: false
        }
    }

    /// What a sign-in link does.
    enum Plan: Sendable {
        /// Confirms an account's email at the backend (``confirmEmail(_:_:)``); no one is signed in.
        case confirmEmail(SessionBackend.EmailConfirmation)
        /// Signs in with the backend, and delivers the session.
        case signIn(SignIn)
    }

    /// A sign-in, ready once the link is recorded: where its session goes, the backend's sign-in of the link, and
    /// where the person confirms it.
    struct SignIn: Sendable {
        let delivery: Delivery
        let ready: ReadySignIn
        let confirmation: Confirmation
    }

    /// The backend's sign-in of the link, who confirms it, and room for the session: checked before anything is
    /// recorded or sent.
    func plan(
        _ link: ClaimedLink,
        client: (any LinkClient)?,
        context: ActionContext
    ) async -> Result<Plan, WireProtocol.Failure> {
        let delivery = settings(of: link).delivery
        guard let configured = (link.claim.backend ?? link.app.backend)?.makeBackend() else {
            let failure = WireProtocol.Failure(
                kind: .unavailable,
                reason: .noBackend,
                message: "\(link.appName) has no backend"
            )
            return .failure(refuse(failure, link, context))
        }
        // A backend's email-confirmation link at a sign-in link confirms an account: it signs no one in.
        if let confirmation = configured.emailConfirmation(of: link.route.auth) {
            return .success(.confirmEmail(confirmation))
        }
        if let failure = await providerError(link) { return .failure(refuse(failure, link, context)) }
        let stores = SignInStores(verifiers: pkceStore, apple: appleStore)
        let ready: ReadySignIn
        switch configured.signIn.signIn(of: link.route.auth, routeID: link.route.id, app: link.appName, stores: stores)
        {
        case .success(let made): ready = made
        case .failure(let failure): return .failure(refuse(WireProtocol.Failure(failure), link, context))
        }
        let confirmation: Confirmation
        switch await Self.confirmation(
            for: ready.origin,
            link,
            client: client,
            waiters: waiters,
            window: appWindow
        ) {
        case .success(let who): confirmation = who
        case .failure(let failure): return .failure(refuse(failure, link, context))
        }
        if delivery == .forward, await !forward.hasRoom(for: link.appName, context: context) {
            let failure = refuse(.forwardQueueFull(app: link.appName, limit: forward.queueLimit), link, context)
            // A `linkd login` that waits for this sign-in hears at once that it ended.
            if ready.origin == .browser { await waiters.finish(link.appName, with: .failed(failure)) }
            return .failure(failure)
        }
        return .success(.signIn(SignIn(delivery: delivery, ready: ready, confirmation: confirmation)))
    }

    /// A double click joins the first run.
    static let joinsRepeats = true

    /// A session for a program waits for a program slot.
    func admission(_ plan: Plan, link: ClaimedLink) -> Admission {
        guard case .signIn(let signIn) = plan, case .exec = signIn.delivery else { return Admission(kind: .signin) }
        return Admission(kind: .signin, takesProgramSlot: true)
    }

    func run(_ plan: Plan, _ run: LinkRun) async -> Outcome {
        switch plan {
        case .confirmEmail(let confirmation): await confirmEmail(confirmation, run)
        case .signIn(let signIn): await self.signIn(signIn, run)
        }
    }

    /// The `linkd login` that started the sign-in in the browser hears how it ended.
    func answered(_ plan: Plan, link: ClaimedLink, with response: WireProtocol.Response) async {
        if case .signIn(let signIn) = plan, signIn.ready.origin == .browser {
            await waiters.finish(link.appName, with: response)
        }
    }

    /// A sign-in left in the spool by a daemon that stopped is not run again (its code may have been used, and the
    /// session never reached the app): the person is told to sign in again.
    func replay(_ entry: Spool.Entry, link: ClaimedLink?, context: ActionContext) async -> Replay<Plan> {
        context.spool.remove(entry.id)
        context.log.notice("link \(entry.shortID): a sign-in interrupted by a crash is not replayed")
        let app = link?.appName ?? "an app"
        await DesktopNotice.show(
            summary: "Sign-in interrupted",
            body: "\(app): linkd stopped before you were signed in; sign in again.",
            log: context.log
        )
        return .handled
    }

    /// `failure`, logged as the refusal of `link`.
    func refuse(
        _ failure: WireProtocol.Failure,
        _ link: ClaimedLink,
        _ context: ActionContext
    ) -> WireProtocol.Failure {
        context.log.warning(
            "refused a link at \(link.appName)'s sign-in: \(failure.message)",
            [("LINKD_ROUTE", link.route.id)]
        )
        return failure
    }
}

extension SignInAction {
    /// Whether the person confirmed the sign-in to `app` as `email` where `confirmation` says to ask them; `true` for
    /// a sign-in linkd started.
    func isConfirmed(
        _ confirmation: Confirmation,
        app: String,
        email: String,
        client: (any LinkClient)?
    ) async -> Bool {
        switch confirmation {
        case .none: return true
        case .login: return await waiters.confirm(app, prompt: "Signed in to \(app) as \(email) — keep?")
        case .appWindow:
            switch await appWindow.ask(app, .confirm, prompt: "Sign in to \(app) as \(email)?", rejection: nil) {
            case .given(let answer): return answer.revealed() == "yes"
            case .declined: return false
            case .none: break
            }
            if let client, await client.canConfirm {
                return await isConfirmed(.terminal, app: app, email: email, client: client)
            }
            guard await DesktopNotification.canAsk() else { return false }
            return await isConfirmed(.notification, app: app, email: email, client: client)
        case .terminal: return await client?.confirm(prompt: "Sign in to \(app) as \(email)?") == true
        case .notification:
            return await DesktopNotification.ask(
                summary: "Sign in to \(app)?",
                body: "Sign in to \(app) as \(email)? Only if you asked for this email.",
                accept: "Sign in",
                decline: "Cancel"
            )
        }
    }

    /// What becomes of a forwarded session no subscriber took (its time to live passed, or the daemon stopped): it is
    /// signed out at the backend (it would otherwise stay live there, unused), and the person is told to sign in again.
    static func signOutUndelivered(
        _ session: SignedInSession,
        app: String,
        context: ActionContext
    ) -> @Sendable () async -> Void {
        {
            let signedOut = await session.signOut()
            context.log.notice(
                "the session for \(app) was not taken"
                    + (signedOut ? " and was signed out" : "; signing it out failed"),
                [("LINKD_APP", app)]
            )
            await DesktopNotice.show(
                summary: "Sign-in not delivered",
                body: "\(app) did not take the sign-in; start \(app) and sign in again.",
                log: context.log
            )
        }
    }

    /// The outcome of a sign-in that is not delivered: its session signed out, `why` logged, failing with
    /// `failure`.
    func abandon(
        _ session: SignedInSession,
        why: String,
        _ failure: WireProtocol.Failure,
        _ run: LinkRun
    ) async -> Outcome {
        let signedOut = await session.signOut()
        let note = "link \(run.entry.shortID): \(why)" + (signedOut ? "; its session was signed out" : "")
        return .failed(failure, note: .notice(note))
    }
}

extension Spool.Entry.Kind {
    /// A sign-in: the link's code is exchanged for a session, which goes to the app's program.
    package static let signin = Self(keyword: SignInAction.keyword)
}
