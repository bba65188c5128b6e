package import LinkdConfig
import LinkdFormats
import LinkdRouting
package import LinkdSession

/// The reset email an app's user asks for — by `linkd reset request`, or by the app through the apps' interface.
package enum ResetEmail {
    /// Why no email was asked for.
    package enum Refusal: Error, Sendable {
        /// The app's configuration cannot send one (no backend, no reset link to lead to).
        case notPossible(String)
        /// The backend refused or could not be reached.
        case failed(ResetFailure)
    }

    /// Asks `app`'s backend to email `email` a reset link leading to the app's first reset link: Supabase
    /// `POST /recover` with a PKCE challenge whose verifier `store` keeps, App Services `…/reset/send`.
    ///
    /// - Returns: whether the email carries a code too (the backend's `emailCodes`).
    /// - Throws: ``Refusal``.
    package static func request(for app: AppConfig, email: String, store: PKCEStore) async throws(Refusal) -> Bool {
        let resetLinks = app.links.filter(\.resetsPassword)
        guard let backend = resetLinks.first?.backend ?? app.backend else {
            throw .notPossible("\(app.app) has no backend to reset a password with")
        }
        let client = backend.makeBackend().reset
        // The email leads to the app's own reset link when the backend takes the link from the request.
        let resetLink = resetLinks.first { $0.format == backend.format }
        if type(of: client).emailLeadsToRequestedLink, resetLink == nil {
            throw .notPossible("\(app.app) claims no \(backend.name) reset link to send the email to")
        }
        do throws(ResetFailure) {
            try await client.requestReset(
                email: email,
                redirectTo: resetLink?.match.description ?? "",
                verifierStore: store,
                app: app.app
            )
        } catch {
            throw .failed(error)
        }
        return backend.emailsCarryCodes
    }
}
