package import LinkdFormats
import LinkdRouting

extension AppConfig {
    /// The backend a password reset of the app goes to: its first reset link's, else the app's own.
    package var resetBackend: BackendConfig? { links.first(where: \.resetsPassword)?.backend ?? backend }

    /// The app's reset link of `backend`'s format, which a reset email leads to, when it claims one.
    package func resetLink(of backend: BackendConfig) -> String? {
        links.first { $0.resetsPassword && $0.format == backend.format }?.match.description
    }
}
