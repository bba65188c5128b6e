import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdWire

extension LoginCommand {
    /// `--provider`: GoTrue's `/authorize` page for `provider`, with a new verifier stored for its PKCE challenge.
    func startProviderSignIn(
        _ provider: String,
        signIn: any SignInStarter,
        redirectTo: String,
        store: PKCEStore
    ) async throws(CommandFailure) -> (address: String, verifier: Secret) {
        let address: String
        let verifier: Secret?
        do throws(SignInFailure) {
            (address, verifier) = try await signIn.startProviderSignIn(
                provider: provider,
                redirectTo: redirectTo,
                verifierStore: store,
                app: app
            )
        } catch {
            throw .failed(error.message, exitCode: WireProtocol.Failure(error).kind.exitCode)
        }
        guard let verifier else {
            throw .failed(
                "the sign-in's verifier was gone at once from \(store.directory)",
                exitCode: .temporaryFailure
            )
        }
        return (address, verifier)
    }

    /// Opens `address` (where the sign-in with `provider` starts) in the browser and waits, on a connection to the
    /// daemon (`await_signin`), until the sign-in has come back: on a terminal the daemon first asks here whether to
    /// keep it ("Signed in to APP as EMAIL — keep? [Y/n]"), since the address of a sign-in started in the browser may
    /// be seen by others. Ctrl-C, or ten minutes with nothing back, forgets `verifier`, stored in `store`.
    func signInInBrowser(
        _ provider: String,
        address: String,
        verifier: Secret,
        store: PKCEStore,
        _ console: Console
    ) async throws(CommandFailure) -> ExitCode {
        InterruptRequest.catchSignal()
        var client: DaemonClient
        do throws(CommandFailure) {
            client = try await waitingDaemon()
        } catch {
            store.remove(verifier, app: app)
            throw error
        }
        defer { client.close() }
        do throws(CommandFailure) {
            guard let program = Self.openInBrowser(address) else {
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
            try await awaitSignIn(&client, console)
        } catch {
            store.remove(verifier, app: app)
            throw error
        }
        console.write("signed in: \(app) with \(provider)\n")
        return .success
    }

    /// A connection to the daemon that waits for the app's sign-in (`await_signin`; on a terminal the daemon asks
    /// here whether to keep it), before the browser can bring it back.
    private func waitingDaemon() async throws(CommandFailure) -> DaemonClient {
        var client = try await DaemonClient.connectedToUsersDaemon()
        await client.send(.awaitSignIn(app: app, canConfirm: FileDescriptor.standardInput.isTerminal))
        guard case .response(.waiting) = await client.receive(within: .seconds(10)) else {
            client.close()
            throw .failed(
                "the linkd daemon does not wait for sign-ins; is it as new as this linkd?",
                exitCode: .unavailable
            )
        }
        return client
    }

    /// Waits until the sign-in has come back (its keep question answered on the terminal), Ctrl-C, or the daemon's
    /// end of the wait; throws unless it signed in.
    private func awaitSignIn(_ client: inout DaemonClient, _ console: Console) async throws(CommandFailure) {
        while true {
            if InterruptRequest.wasMade {
                throw .failed("cancelled: the sign-in to \(app) was forgotten", exitCode: .temporaryFailure)
            }
            switch await client.receive(within: .seconds(1), confirm: { Self.keep($0, console) }) {
            case .timedOut:
                continue
            case .gone, .unread:  // unread: the daemon answered `waiting` already, so never here
                throw .failed(
                    "the linkd daemon went away before the sign-in to \(app) came back; run 'linkd login' again",
                    exitCode: .temporaryFailure
                )
            case .response(.failed(let failure)):
                throw .failed(DisplayText.sanitize(failure.message), exitCode: failure.kind.exitCode)
            case .response:
                return
            }
        }
    }

    /// Opens `address` through the desktop's portal when there is one (the address then stands in no process's
    /// command line), else with ``Browser`` (`$BROWSER`, else `xdg-open`, which other local users can read in the
    /// process list); the name of what opened it, `nil` when nothing could.
    static func openInBrowser(_ address: String) -> String? {
        if SessionBus.openThroughPortal(address, timeout: .seconds(5)) == .opened { return "the desktop's browser" }
        return Browser(environment: ProcessInfo.processInfo.environment).open(address)
    }

    /// Asks on the terminal whether to keep a sign-in that came back: yes unless the person says `n` or `no`.
    static func keep(_ question: WireProtocol.ConfirmQuestion, _ console: Console) -> Bool {
        console.writeError("\(question.prompt) [Y/n] ")
        guard let line = FileDescriptor.standardInput.readLine() else { return false }
        let answer = String(decoding: line, as: UTF8.self).lowercased().filter { !$0.isWhitespace }
        return answer.isEmpty || answer == "y" || answer == "yes"
    }
}
