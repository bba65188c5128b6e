import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdWire

extension LoginCommand {
    /// `--provider apple` for an app that configures `apple`: Apple's own authorization page, with a state and a
    /// hashed nonce from a secret stored for this sign-in; Apple posts its answer to the app's Return URL page, which
    /// redirects to the app's `apple` sign-in link, and the daemon signs in with the id token (Supabase's id-token
    /// grant, or App Services' oauth2-apple login) once the state and nonce prove that this sign-in is the one linkd
    /// started.
    func signInWithApple(_ config: AppConfig, _ console: Console) async throws(CommandFailure) -> ExitCode {
        guard let apple = config.apple else { preconditionFailure("an app with apple settings") }
        let isAppleLink = { (link: LinkConfig) -> Bool in
            link.signsIn && link.format == .apple
        }
        guard config.links.contains(where: isAppleLink) else {
            throw .failed(
                "\(app) claims no signin link with format 'apple' for Apple's answer to come back to",
                exitCode: .usage
            )
        }
        let store = PKCEStore(stateFolder: XDGDirectories().linkdState, purpose: .appleSignIn)
        let client = AppleSignInRequest.Client(
            authorizeURL: apple.authorizeURL,
            clientID: apple.clientID,
            redirectURI: apple.redirectURI,
            scope: apple.scope
        )
        let started: (address: String, secret: Secret)
        do throws(SignInFailure) {
            started = try AppleSignInRequest.start(client, store: store, app: app, now: WallClock.seconds)
        } catch {
            throw .failed(error.message, exitCode: WireProtocol.Failure(error).kind.exitCode)
        }
        return try await signInInBrowser(
            "apple",
            address: started.address,
            verifier: started.secret,
            store: store,
            console
        )
    }
}
