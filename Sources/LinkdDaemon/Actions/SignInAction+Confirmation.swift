import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdWire

extension SignInAction {
    /// An email confirmation at a sign-in link (App Services' `appservices.confirm`): the account is confirmed once
    /// (``SessionBackend/emailConfirmation(of:)``) and the person is told to sign in; nothing is delivered, since a
    /// confirmation makes no session. Confirming needs no question first: it signs no one in, so a mailed link of
    /// someone else's confirms only their own account.
    func confirmEmail(
        _ link: ClaimedLink,
        with confirmation: SessionBackend.EmailConfirmation,
        context: ActionContext
    ) async -> WireProtocol.Response {
        if let joined = await context.flights.joinOrStart(link.flightKey) { return joined }  // a double click joins
        let entry: Spool.Entry
        do throws(WireProtocol.Failure) {
            entry = try context.record(link.url, kind: .signin)
        } catch {
            await context.flights.finish(link.flightKey, with: .failed(error))
            return .failed(error)
        }
        context.log.info("link \(entry.shortID) accepted for \(link.appName): \(link.route.id)", link.logFields(entry))
        let response: WireProtocol.Response
        do throws(SessionError) {
            try await confirmation()
            context.log.info("link \(entry.shortID): the email of an account of \(link.appName) was confirmed")
            response = .accepted(
                route: link.route.id,
                app: link.appName,
                state: .done,
                message: "email confirmed: sign in to \(link.appName)"
            )
        } catch {
            let failure = WireProtocol.Failure(SignInFailure(error))
            context.log.warning("link \(entry.shortID): not confirmed: \(failure.message)", link.logFields(entry))
            response = .failed(failure)
        }
        context.spool.remove(entry.id)
        await context.flights.finish(link.flightKey, with: response)
        return response
    }
}
