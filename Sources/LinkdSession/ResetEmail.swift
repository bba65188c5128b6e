package import LinkdFormats

/// The reset email an app's user asks for — by `linkd reset request`, or by the app through the apps' interface.
package enum ResetEmail {
    /// Why no email was asked for.
    package enum Refusal: Error, Sendable {
        /// The app's configuration cannot send one (no reset link to lead to).
        case notPossible(String)
        /// The backend refused or could not be reached.
        case failed(ResetFailure)
    }

    /// Asks `backend` to email `email` a reset link of `app`'s leading to `resetLink` (the app's reset link of the
    /// backend's format, if it claims one): Supabase `POST /recover` with a PKCE challenge whose verifier `store`
    /// keeps, App Services `…/reset/send`.
    ///
    /// - Returns: whether the email carries a code too (the backend's `emailCodes`).
    /// - Throws: ``Refusal``.
    package static func request(
        app: String,
        backend: BackendConfig,
        resetLink: String?,
        email: String,
        store: PKCEStore
    ) async throws(Refusal) -> Bool {
        let client = backend.makeBackend().reset
        // The email leads to the app's own reset link when the backend takes the link from the request.
        if type(of: client).emailLeadsToRequestedLink, resetLink == nil {
            throw .notPossible("\(app) claims no \(backend.name) reset link to send the email to")
        }
        do throws(ResetFailure) {
            try await client.requestReset(email: email, redirectTo: resetLink ?? "", verifierStore: store, app: app)
        } catch {
            throw .failed(error)
        }
        return backend.emailsCarryCodes
    }
}
