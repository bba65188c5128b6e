import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdWire

extension AppInterface {
    /// The most reset emails an app may ask for within ``requestWindow``.
    static let requestLimit = 5
    static let requestWindow = Duration.seconds(600)

    /// Whether the caller is subscribed as `app`: it proved it is the app.
    func isSubscribed(_ call: BusCall, as app: String) -> Bool {
        subscriptions.withLock { $0[call.sender]?.contains { $0.app == app } ?? false }
    }

    private func notSubscribed(_ app: String) -> BusError {
        BusError(name: "io.linkd.Linkd1.Error.NotSubscribed", message: "subscribe as \(app) first")
    }

    /// The caller, subscribed as `app`, answers `questions` (`password`, `code`) in its window from now on.
    func answerQuestions(_ call: BusCall, app: String, questions: [String]) -> Result<[BusValue], BusError> {
        guard isSubscribed(call, as: app) else { return .failure(notSubscribed(app)) }
        let known = questions.compactMap(AppWindow.Question.init(rawValue:))
        guard known.count == questions.count else {
            return .failure(.invalidArguments("the questions are password and code"))
        }
        service.appWindow.answer(Set(known), for: app, connection: call.sender)
        service.log.info(
            "\(app) answers \(known.isEmpty ? "no questions" : known.map(\.rawValue).joined(separator: " and "))",
            [("LINKD_APP", app)]
        )
        return .success([])
    }

    /// The caller's answer to the question `id` it was asked.
    func reply(_ call: BusCall, question id: String, _ answer: AppWindow.Answer) -> Result<[BusValue], BusError> {
        guard service.appWindow.reply(id, from: call.sender, answer) else {
            return .failure(
                BusError(name: "io.linkd.Linkd1.Error.NoSuchQuestion", message: "no question \(id) waits for you")
            )
        }
        return .success([])
    }

    /// Asks `app`'s backend to email `email` a reset link, as `linkd reset request` does, for a caller subscribed as
    /// `app`; at most ``requestLimit`` in ``requestWindow`` for one app.
    func requestReset(_ call: BusCall, app: String, email: String) async -> Result<[BusValue], BusError> {
        guard isSubscribed(call, as: app) else { return .failure(notSubscribed(app)) }
        guard let config = await service.resolver.apps.first(where: { $0.app == app }) else {
            return .failure(BusError(name: "io.linkd.Linkd1.Error.UnknownApp", message: "no apps.d file names \(app)"))
        }
        guard takeRequest(for: app) else { return .failure(rateLimited(app)) }
        let masked = JWTClaims.mask(email)
        guard let store = service.resetVerifiers else { return .failure(notPossible("this daemon keeps no verifiers")) }
        guard let backend = config.resetBackend else {
            return .failure(notPossible("\(app) has no backend to reset a password with"))
        }
        do throws(ResetEmail.Refusal) {
            _ = try await ResetEmail.request(
                app: app,
                backend: backend,
                resetLink: config.resetLink(of: backend),
                email: email,
                store: store
            )
        } catch {
            let failure: BusError
            switch error {
            case .notPossible(let message): failure = notPossible(message)
            case .failed(let reset): failure = Self.busError(WireProtocol.Failure(reset))
            }
            service.log.warning(
                "\(app) asked for a reset email for \(masked): \(failure.message)",
                [("LINKD_APP", app)]
            )
            return .failure(failure)
        }
        service.log.info("\(app) asked for a reset email for \(masked)", [("LINKD_APP", app)])
        return .success([])
    }

    /// Counts one more request of `app` (a reset email, a sign-in); `false` when it already made ``requestLimit``
    /// within ``requestWindow``.
    func takeRequest(for app: String) -> Bool {
        let now = ContinuousClock.now
        return requests.withLock { requests in
            let recent = (requests[app] ?? []).filter { now - $0 < Self.requestWindow }
            guard recent.count < Self.requestLimit else {
                requests[app] = recent
                return false
            }
            requests[app] = recent + [now]
            return true
        }
    }
}
