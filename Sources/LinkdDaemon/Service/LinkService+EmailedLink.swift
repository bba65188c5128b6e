import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdWeb
import LinkdWire

extension LinkService {
    /// The link exactly as a backend emailed it (a Supabase email's `https://<the app's backend>/auth/v1/verify?
    /// token=…&type=…&redirect_to=<a link of that app>`), which a mail client without a browser hands over as it is:
    /// linkd makes the request the browser would have made (redirects not followed) and goes on with the link the
    /// backend redirects to — which must be a link of the same app.
    ///
    /// - Returns: the answer, or `nil` when `link` is no app's emailed link.
    func openEmailed(_ link: LinkURL, client: (any LinkClient)?) async -> WireProtocol.Response? {
        guard let (app, backend) = resolver.emailingApp(of: link) else { return nil }
        let host = link.hostname
        let fields = [("LINKD_APP", app.app)]
        log.info("an emailed link of \(app.app)'s backend: asking \(host) where it leads", fields)
        let location: String
        switch await backend.follow(emailedLink: link) {
        case .redirect(let target):
            location = target
        case .unreachable(let why):
            return .failed(
                WireProtocol.Failure(
                    kind: .unavailable,
                    reason: WireProtocol.Reason(ResetFailureKind.unreachable),
                    message: why
                )
            )
        case .refused(let status, let said):
            return .failed(
                WireProtocol.Failure(
                    kind: .refused,
                    reason: .linkRefused,
                    message: "the backend '\(host)' refused the emailed link (\(status))"
                        + (said.map { ": " + $0 } ?? "")
                )
            )
        }
        guard let target = try? LinkURL(parsing: location), (try? resolver.resolve(target))?.app?.app == app.app else {
            log.warning("the backend '\(host)' sent an emailed link of \(app.app) elsewhere; refused", fields)
            return .failed(
                WireProtocol.Failure(
                    kind: .invalid,
                    reason: .foreignRedirect,
                    message: "the backend '\(host)' sends this link to '\(LinkRedactor.redact(location).prefix(200))', "
                        + "which is not a link of \(app.app)"
                )
            )
        }
        return await open(target.href, client: client)
    }
}
