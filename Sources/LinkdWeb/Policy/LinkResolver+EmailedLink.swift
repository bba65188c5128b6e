package import LinkdConfig
package import LinkdFormats
package import LinkdRouting
import LinkdSession

extension LinkResolver {
    /// The app whose own backend emailed `link` (`https://<its Supabase host>/auth/v1/verify?…&redirect_to=…`), with
    /// that backend; `nil` when `link` is no app's emailed link. It is an app's only when the link's `redirect_to` is
    /// one of that app's own links: decided here, from the link alone, before any request — a verify link whose
    /// `redirect_to` is the project's website (a reset or magic link asked for there) is the browser's, and asking the
    /// backend where it leads would spend it. The daemon follows an app's emailed link; a click on one is the app's.
    package func emailingApp(of link: LinkURL) -> (app: AppConfig, backend: BackendConfig)? {
        guard let redirect = (try? link.parameters())?["redirect_to"], let target = try? LinkURL(parsing: redirect),
            let claimer = claimingApp(of: target)
        else { return nil }
        for app in apps where app.app == claimer.app {
            let backends = ([app.backend] + app.links.map(\.backend)).compactMap { $0 }
            if let backend = backends.first(where: { $0.isEmailedLink(link) }) { return (app, backend) }
        }
        return nil
    }
}
