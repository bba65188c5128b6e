package import LinkdConfig
package import LinkdFormats
package import LinkdRouting
import LinkdSession

extension [AppConfig] {
    /// The app whose own backend emailed `link` (`https://<its Supabase host>/auth/v1/verify?…`), with that backend;
    /// `nil` when `link` is no app's emailed link. The daemon follows such a link; a click on one is the app's.
    package func emailingApp(of link: LinkURL) -> (app: AppConfig, backend: BackendConfig)? {
        for app in self {
            let backends = ([app.backend] + app.links.map(\.backend)).compactMap { $0 }
            if let backend = backends.first(where: { $0.isEmailedLink(link) }) { return (app, backend) }
        }
        return nil
    }
}
