import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdWire

extension LinkService {
    /// The link exactly as a backend emailed it (`https://<an app's Supabase host>/auth/v1/verify?token=…&type=…&
    /// redirect_to=<a link of that app>`), which a mail client without a browser hands over as it is: linkd makes
    /// the verify request the browser would have made (redirects not followed) and goes on with the link the
    /// backend redirects to — which must be a link of the same app.
    ///
    /// - Returns: the answer, or `nil` when `link` is no app's emailed link.
    func openEmailed(_ link: LinkURL, client: (any LinkClient)?) async -> WireProtocol.Response? {
        guard let (app, backend) = emailingApp(of: link) else { return nil }
        let host = link.hostname
        let fields = [("LINKD_APP", app.app)]
        log.info("an emailed link of \(app.app)'s backend: asking \(host) where it leads", fields)
        let response: HTTPResponse
        do {
            response = try await CurlTransport(caFile: backend.caFile).send(HTTPRequest(method: "GET", url: link.href))
        } catch {
            return .failed(
                WireProtocol.Failure(
                    kind: .unavailable,
                    reason: WireProtocol.Reason(ResetFailureKind.unreachable),
                    message: "\(error)"
                )
            )
        }
        guard response.status == 303 || response.status == 302, let location = response.headers["location"] else {
            let said = (try? JSONValue.parse(response.body)).flatMap {
                $0["msg"]?.stringValue ?? $0["message"]?.stringValue
            }
            return .failed(
                WireProtocol.Failure(
                    kind: .refused,
                    reason: .linkRefused,
                    message: "the backend '\(host)' refused the emailed link (\(response.status))"
                        + (said.map { ": " + DisplayText.sanitize(String($0.prefix(200))) } ?? "")
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

    /// The app whose Supabase backend `link` is the verify endpoint of, with that backend.
    private func emailingApp(of link: LinkURL) -> (AppConfig, BackendConfig)? {
        guard link.scheme == "https" || link.scheme == "http" else { return nil }
        for app in resolver.apps {
            let backends = ([app.backend] + app.links.map(\.backend)).compactMap { $0 }
            for backend in backends {
                guard case .supabase = backend.kind, backend.url.scheme == link.scheme,
                    backend.url.hostname == link.hostname, backend.url.port == link.port
                else { continue }
                let base =
                    backend.url.pathname.hasSuffix("/") ? String(backend.url.pathname.dropLast()) : backend.url.pathname
                if link.pathname == base + "/auth/v1/verify" { return (app, backend) }
            }
        }
        return nil
    }
}
