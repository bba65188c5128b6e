import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdWire

extension SignInAction {
    /// An email confirmation at a sign-in link (App Services' `appservices.confirm`): the account is confirmed once
    /// (``SessionBackend/emailConfirmation(of:)``) and the person is told to sign in; nothing is delivered, since a
    /// confirmation makes no session. Confirming needs no question first: it signs no one in, so a mailed link of
    /// someone else's confirms only their own account.
    func confirmEmail(_ confirmation: SessionBackend.EmailConfirmation, _ run: LinkRun) async -> Outcome {
        let (link, entry) = (run.link, run.entry)
        do throws(SessionError) {
            try await confirmation()
            return Outcome(
                .accepted(
                    route: link.route.id,
                    app: link.appName,
                    state: .done,
                    message: "email confirmed: sign in to \(link.appName)"
                ),
                note: .info("link \(entry.shortID): the email of an account of \(link.appName) was confirmed")
            )
        } catch {
            let failure = WireProtocol.Failure(SignInFailure(error))
            return .failed(failure, note: .warning("link \(entry.shortID): not confirmed: \(failure.message)"))
        }
    }
}
