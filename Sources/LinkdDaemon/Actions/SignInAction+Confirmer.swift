import LinkdConfig
import LinkdDesktop
import LinkdSession
import LinkdWire

extension SignInAction {
    /// Where the person confirms a sign-in linkd did not start.
    enum Confirmation: Sendable {
        /// No question: linkd started the sign-in with an emailed link.
        case none
        /// By the `linkd login` that started the sign-in in the browser and waits for it, on its terminal.
        case login
        /// In the app's own window (its subscriber answers `confirm`); where it does not answer in time, as without.
        case appWindow
        /// On the terminal of `linkd open`.
        case terminal
        /// In a desktop notification with buttons (`linkd open` has no terminal, as when the mail client ran it).
        case notification
    }

    /// Who confirms a sign-in of `origin`: none when linkd started it with an emailed link; the `linkd login` that
    /// waits for a sign-in started in the browser; else the person, in the app's window (which the app started the
    /// sign-in from), on the terminal of `linkd open`, or in a notification whose server shows buttons. A sign-in no
    /// one can confirm is refused before anything is sent.
    static func confirmation(
        for origin: SignInOrigin,
        _ link: ClaimedLink,
        client: (any LinkClient)?,
        waiters: SignInWaiters,
        window: AppWindow
    ) async -> Result<Confirmation, WireProtocol.Failure> {
        switch origin {
        case .emailedByLinkd: return .success(.none)
        case .browser: if await waiters.hasConfirmer(for: link.appName) { return .success(.login) }
        case .notStartedByLinkd: break
        }
        if window.answers(link.appName, .confirm) { return .success(.appWindow) }
        if let client, await client.canConfirm { return .success(.terminal) }
        if await DesktopNotification.canAsk() { return .success(.notification) }
        let failure = WireProtocol.Failure(
            kind: .invalid,
            reason: .cannotConfirm,
            message: origin == .browser
                ? "this sign-in to \(link.appName) came back from the browser and is kept only once you confirm "
                    + "it: run 'linkd login' in a terminal, or open the link with 'linkd open' in one"
                : "linkd did not start this sign-in to \(link.appName), and signs in only after you confirm it: "
                    + "open the link with 'linkd open' in a terminal"
        )
        // A `linkd login` that waits for this sign-in, but cannot ask, hears at once that it ended.
        if origin == .browser { await waiters.finish(link.appName, with: .failed(failure)) }
        return .failure(failure)
    }
}
