package import LinkdFormats

/// What a sign-in link gives, and how it becomes a session.
package enum SignInMaterial: Sendable {
    /// A code of a sign-in linkd started, and the verifier that proves it.
    case pkce(code: Secret, verifier: PKCEVerifier)
    /// An emailed link's token hash, for `POST /verify`.
    case tokenHash(Secret, type: String)
    /// An implicit-flow link's tokens.
    case session(accessToken: Secret, refreshToken: Secret)
    /// An Apple id token of a sign-in linkd started, and the secret whose hash is its nonce.
    case appleIDToken(Secret, secret: PKCEVerifier)

    /// Whether the sign-in was started in the browser (`linkd login --provider`): its outcome goes to the
    /// `linkd login` that waits for it.
    package var isStartedInBrowser: Bool {
        switch self {
        case .pkce(_, let verifier): verifier.startedInBrowser
        case .appleIDToken: true
        case .tokenHash, .session: false
        }
    }

    /// Signs in with Supabase Auth with what the link gave.
    ///
    /// - Throws: the backend's refusal, or why there was no answer.
    func session(_ signIn: SupabaseSignIn) async throws(SessionError) -> GoTrueSession {
        switch self {
        case .pkce(let code, let verifier): try await signIn.exchange(code: code, verifier: verifier)
        case .tokenHash(let hash, let type): try await signIn.verify(tokenHash: hash, type: type)
        case .session(let access, let refresh): try await signIn.session(accessToken: access, refreshToken: refresh)
        case .appleIDToken(let token, let secret): try await signIn.signInWithApple(idToken: token, secret: secret)
        }
    }
}
