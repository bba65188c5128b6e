import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdSystem
import LinkdWire

extension AppInterface {
    /// The configuration of `app`, when the caller is subscribed as `app`.
    private func subscribedConfig(_ call: BusCall, app: String) async -> Result<AppConfig, BusError> {
        guard isSubscribed(call, as: app) else {
            return .failure(BusError(name: "io.linkd.Linkd1.Error.NotSubscribed", message: "subscribe as \(app) first"))
        }
        guard let config = await service.resolver.apps.first(where: { $0.app == app }) else {
            return .failure(BusError(name: "io.linkd.Linkd1.Error.UnknownApp", message: "no apps.d file names \(app)"))
        }
        return .success(config)
    }

    /// The sign-in an app starts, as `linkd login` does: its first `signin` link, which the sign-in comes back to,
    /// and its backend's way to start one.
    private func signInStart(
        _ call: BusCall,
        app: String
    ) async -> Result<(LinkConfig, any SignInStarter, PKCEStore), BusError> {
        let config: AppConfig
        switch await subscribedConfig(call, app: app) {
        case .success(let found): config = found
        case .failure(let refusal): return .failure(refusal)
        }
        guard let link = config.links.first(where: \.signsIn) else {
            return .failure(notPossible("\(app) claims no signin link for the sign-in to come back to"))
        }
        guard let starter = (link.backend ?? config.backend)?.makeBackend().startedSignIn else {
            return .failure(notPossible("\(app) has no Supabase backend to sign in with"))
        }
        guard let store = service.signInVerifiers else {
            return .failure(notPossible("this daemon keeps no verifiers"))
        }
        guard takeRequest(for: app) else { return .failure(rateLimited(app)) }
        return .success((link, starter, store))
    }

    /// `SignInWithEmail(app, email)`: a magic link for `email`, as `linkd login --email` asks for it (PKCE kept by
    /// linkd); its link then signs the app in, and the session comes as `Session`.
    func signInWithEmail(_ call: BusCall, app: String, email: String) async -> Result<[BusValue], BusError> {
        let (link, starter, store): (LinkConfig, any SignInStarter, PKCEStore)
        switch await signInStart(call, app: app) {
        case .success(let started): (link, starter, store) = started
        case .failure(let refusal): return .failure(refusal)
        }
        do throws(SignInFailure) {
            try await starter.requestMagicLink(
                email: email,
                redirectTo: link.match.description,
                verifierStore: store,
                app: app
            )
        } catch {
            return .failure(Self.busError(WireProtocol.Failure(error)))
        }
        service.log.info("\(app) asked for a sign-in email for \(JWTClaims.mask(email))", [("LINKD_APP", app)])
        return .success([])
    }

    /// `SignIn(app, provider)`: the address of the provider's sign-in page, as `linkd login --provider` opens it
    /// (PKCE kept by linkd), for the app to open in the browser; the sign-in comes back to the app's `signin` link
    /// and its session as `Session`.
    func signIn(_ call: BusCall, app: String, provider: String) async -> Result<[BusValue], BusError> {
        guard Self.isProviderName(provider) else {
            return .failure(notPossible("'\(DisplayText.sanitize(provider))' is no provider name"))
        }
        if provider == "apple" { return await signInWithApple(call, app: app) }
        let (link, starter, store): (LinkConfig, any SignInStarter, PKCEStore)
        switch await signInStart(call, app: app) {
        case .success(let started): (link, starter, store) = started
        case .failure(let refusal): return .failure(refusal)
        }
        do throws(SignInFailure) {
            let (address, _) = try await starter.startProviderSignIn(
                provider: provider,
                redirectTo: link.match.description,
                verifierStore: store,
                app: app
            )
            service.log.info("\(app) started a sign-in with \(provider)", [("LINKD_APP", app)])
            return .success([.string(address)])
        } catch {
            return .failure(Self.busError(WireProtocol.Failure(error)))
        }
    }

    /// `SignIn(app, "apple")` for an app that configures `apple`: the address of Apple's own authorization page,
    /// with a state and a hashed nonce from a secret linkd keeps for this sign-in, as `linkd login --provider apple`
    /// opens it. Apple posts its answer to the app's Return URL page, which redirects to the app's `apple` sign-in
    /// link; the daemon signs in with the id token once the state and nonce prove this sign-in is the one it started,
    /// and the session comes to the app as `Session`.
    private func signInWithApple(_ call: BusCall, app: String) async -> Result<[BusValue], BusError> {
        let config: AppConfig
        switch await subscribedConfig(call, app: app) {
        case .success(let found): config = found
        case .failure(let refusal): return .failure(refusal)
        }
        guard let apple = config.apple else {
            return .failure(notPossible("\(app) has no 'apple' section to sign in with Apple"))
        }
        guard config.links.contains(where: { $0.signsIn && $0.format == .apple }) else {
            return .failure(
                notPossible("\(app) claims no signin link with format 'apple' for Apple's answer to come back to")
            )
        }
        guard let store = service.appleVerifiers else { return .failure(notPossible("this daemon keeps no verifiers")) }
        guard takeRequest(for: app) else { return .failure(rateLimited(app)) }
        let client = AppleSignInRequest.Client(
            authorizeURL: apple.authorizeURL,
            clientID: apple.clientID,
            redirectURI: apple.redirectURI,
            scope: apple.scope
        )
        do throws(SignInFailure) {
            let started = try AppleSignInRequest.start(client, store: store, app: app, now: WallClock.seconds)
            service.log.info("\(app) started a sign-in with apple", [("LINKD_APP", app)])
            return .success([.string(started.address)])
        } catch {
            return .failure(Self.busError(WireProtocol.Failure(error)))
        }
    }

    /// A provider's name as `linkd login --provider` takes it: 1 to 64 of `a`–`z`, `0`–`9`, `_`, `-` and `:`.
    static func isProviderName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
            }
    }

    /// The error of a failure in linkd's words: `io.linkd.Linkd1.Error.REASON`.
    static func busError(_ failure: WireProtocol.Failure) -> BusError {
        BusError(name: "io.linkd.Linkd1.Error.\(failure.reason.rawValue)", message: failure.message)
    }

    func notPossible(_ message: String) -> BusError {
        BusError(name: "io.linkd.Linkd1.Error.NotPossible", message: message)
    }

    func rateLimited(_ app: String) -> BusError {
        BusError(
            name: "io.linkd.Linkd1.Error.RateLimited",
            message: "\(app) asked for \(Self.requestLimit) emails or sign-ins within 10 minutes; wait before the next"
        )
    }
}
