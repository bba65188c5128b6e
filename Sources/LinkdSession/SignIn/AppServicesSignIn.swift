package import LinkdFormats

/// Signing in to Atlas App Services with an Apple id token, as realm-core's `App::log_in_with_credentials` does:
/// the login (B.7), then the profile for the user's email; a session the app never takes is signed out.
package struct AppServicesSignIn: Sendable {
    /// The client that sends the requests.
    package let client: AppServicesClient

    /// A sign-in that talks through `client`.
    package init(client: AppServicesClient) {
        self.client = client
    }

    /// The session of an Apple id token whose nonce `secret` proved (linkd checked it: App Services never sees a
    /// nonce), which only a sign-in that succeeds uses up. The login is retried on connection errors and
    /// 502/503/504; a profile that cannot be read signs the new session out again.
    ///
    /// - Throws: the backend's refusal (`AuthError` for a token whose audience is not the provider's client id, say),
    ///   or why there was no answer.
    package func signInWithApple(
        idToken: Secret,
        secret: PKCEVerifier
    ) async throws(SessionError)
        -> AppServicesSession
    {
        var session = try await RequestRetry()({ () async throws(SessionError) in
            try await client.appleLogin(idToken: idToken)
        })
        secret.spend()
        do {
            session.email = try await client.profileEmail(of: session)
        } catch {
            _ = await signOut(session)
            throw error
        }
        return session
    }

    /// Ends `session` at App Services.
    ///
    /// - Returns: whether App Services confirmed it.
    package func signOut(_ session: AppServicesSession) async -> Bool {
        do throws(SessionError) {
            try await client.signOut(session)
            return true
        } catch {
            return false
        }
    }
}
