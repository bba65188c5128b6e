import FoundationEssentials
import Glibc
import LinkdFormats
import LinkdSession
import LinkdSystem

extension LoginCommand {
    /// `--provider`: GoTrue's `/authorize` page for `provider`, with a new verifier stored for its PKCE challenge.
    func startProviderSignIn(
        _ provider: String,
        signIn: SupabaseSignIn,
        redirectTo: String,
        store: PKCEStore
    ) async throws(CommandFailure) -> (address: String, verifier: Secret) {
        let address: String
        let verifier: Secret?
        do throws(ResetFailure) {
            (address, verifier) = try await signIn.startProviderSignIn(
                provider: provider,
                redirectTo: redirectTo,
                verifierStore: store,
                app: app
            )
        } catch {
            throw .failed(error.message, exitCode: ExitCode(rawValue: error.exitCode) ?? .unavailable)
        }
        guard let verifier else {
            throw .failed(
                "the sign-in's verifier was gone at once from \(store.directory)",
                exitCode: .temporaryFailure
            )
        }
        return (address, verifier)
    }

    /// Opens `address` (where the sign-in with `provider` starts) in the browser and waits until the sign-in has come
    /// back, that is until the daemon's sign-in with what came back has spent `verifier`, stored in `store`; Ctrl-C,
    /// or ten minutes with nothing back, forgets it.
    func signInInBrowser(
        _ provider: String,
        address: String,
        verifier: Secret,
        store: PKCEStore,
        _ console: Console
    ) async throws(CommandFailure) -> ExitCode {
        InterruptRequest.catchSignal()
        let started = Int64(time(nil))
        guard let program = Browser(environment: ProcessInfo.processInfo.environment).open(address) else {
            store.remove(verifier, app: app)
            throw .failed(
                "no browser can be started (set BROWSER, or install xdg-utils); open this address in one and run "
                    + "'linkd login' again: \(address)",
                exitCode: .unavailable
            )
        }
        console.write(
            "opened \(program) to sign in to \(app) with \(provider); if no page opened, visit: \(address)\n"
                + "waiting for the sign-in to come back (up to 10 minutes; Ctrl-C cancels)\n"
        )
        while true {
            let now = Int64(time(nil))
            if InterruptRequest.wasMade {
                store.remove(verifier, app: app)
                throw .failed("cancelled: the sign-in to \(app) was forgotten", exitCode: .temporaryFailure)
            }
            if now >= started + Self.waitLimit {
                store.remove(verifier, app: app)
                throw .failed(
                    "no sign-in to \(app) came back within 10 minutes; run 'linkd login' again",
                    exitCode: .temporaryFailure
                )
            }
            switch store.verifier(for: app, now: now)?.value {
            case nil:
                console.write("signed in: \(app) with \(provider)\n")
                return .success
            case verifier?: break
            case _?:
                throw .failed("another 'linkd login' for \(app) took over this sign-in", exitCode: .temporaryFailure)
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
    }
}
