import LinkdFormats

/// Runs one password reset: establishes the session the link stands for, asks for the new password,
/// sets it, and signs the link's session out. Requests before the password is sent are retried (3 attempts, on
/// connection errors and 502/503/504); the request that carries the password never is.
package struct ResetRunner: Sendable {
    /// How long the backend work of a whole reset may take in all; the time the person takes to type the password
    /// is not counted.
    package static let defaultBackendTimeLimit: Duration = .seconds(60)
    /// The pauses between attempts of a request that may be retried.
    static let retryDelays: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2)]
    /// How many passwords one run sends at most (a terminal may try again after a refusal).
    static let maximumPasswords = 5

    package let backend: ResetBackend
    package let material: ResetMaterial
    /// Who the account is, for the prompt when the backend does not say (App Services): the app's name.
    package let appName: String
    /// Called just before the request that carries the password goes out; `false` stops the reset (the daemon
    /// records "sent" in its spool here, and must not send what it could not record).
    package let beforeSending: @Sendable () async -> Bool
    /// The backend time limit of the whole reset (``defaultBackendTimeLimit``).
    package let backendTimeLimit: Duration

    package init(
        backend: ResetBackend,
        material: ResetMaterial,
        appName: String,
        backendTimeLimit: Duration = Self.defaultBackendTimeLimit,
        beforeSending: @escaping @Sendable () async -> Bool = { true }
    ) {
        self.backend = backend
        self.material = material
        self.appName = appName
        self.backendTimeLimit = backendTimeLimit
        self.beforeSending = beforeSending
    }

    /// What a successful reset did.
    package struct Success: Sendable, Equatable {
        /// The account, masked (`a***@example.com`), or the app's name when the backend does not say.
        package var account: String
        /// Whether the link's session was signed out afterwards (Supabase).
        package var signedOut: Bool

        package init(account: String, signedOut: Bool) {
            self.account = account
            self.signedOut = signedOut
        }
    }

    /// A live session (Supabase), or none (App Services resets with the link's token alone).
    private struct Established: Sendable {
        var accessToken: Secret?
        var account: String
    }

    package func run(passwords: some PasswordSource) async -> Result<Success, ResetFailure> {
        var remaining = backendTimeLimit
        let started = ContinuousClock.now
        let established: Result<Established, SessionError> = await RequestDeadline.$current.withValue(
            started + remaining
        ) { await establish() }
        remaining -= ContinuousClock.now - started
        let session: Established
        switch established {
        case .success(let value): session = value
        case .failure(let error): return .failure(ResetFailure(error))
        }
        let prompt = "New password for \(DisplayText.sanitize(session.account))"
        var rejection: BackendError?
        for attempt in 1...Self.maximumPasswords {
            guard let password = await passwords.newPassword(prompt: prompt, rejection: rejection) else {
                if let rejection { return .failure(ResetFailure(.backend(rejection))) }
                return .failure(ResetFailure(kind: .cancelled, message: "no new password was given; nothing changed"))
            }
            guard await beforeSending() else {
                return .failure(ResetFailure(kind: .temporary, message: "linkd cannot record the reset; nothing sent"))
            }
            let sending = ContinuousClock.now
            let outcome = await RequestDeadline.$current.withValue(sending + remaining) {
                await setPassword(password, session)
            }
            remaining -= ContinuousClock.now - sending
            switch outcome {
            case .success(let signedOut):
                return .success(Success(account: session.account, signedOut: signedOut))
            case .failure(.backend(let error)) where error.kind == .passwordRejected:
                guard attempt < Self.maximumPasswords else { return .failure(ResetFailure(.backend(error))) }
                rejection = error
            case .failure(.backend(let error)):
                return .failure(ResetFailure(.backend(error)))
            case .failure(let error):
                // No answer to the request that carried the password: it may have been set.
                var failure = ResetFailure(error)
                failure.message +=
                    "; the new password may have been set: try signing in with it, or request a new email"
                return .failure(failure)
            }
        }
        preconditionFailure("every attempt returns or asks again")
    }

    private func establish() async -> Result<Established, SessionError> {
        do throws(SessionError) {
            switch (backend, material) {
            case (.supabase(let client), .supabaseSession(let accessToken, let refreshToken)):
                if let claims = JWTClaims(accessToken), claims.isExpired() {
                    let session = try await retrying { () async throws(SessionError) in
                        try await client.refresh(refreshToken)
                    }
                    return .success(
                        Established(accessToken: session.accessToken, account: Self.mask(session.user.email))
                    )
                }
                do {
                    let user = try await retrying { () async throws(SessionError) in
                        try await client.user(accessToken: accessToken)
                    }
                    return .success(Established(accessToken: accessToken, account: Self.mask(user.email)))
                } catch .backend(let error) where error.code == "bad_jwt" {
                    // Expired by the backend's clock though not by ours: the refresh token may still serve.
                    let session = try await retrying { () async throws(SessionError) in
                        try await client.refresh(refreshToken)
                    }
                    return .success(
                        Established(accessToken: session.accessToken, account: Self.mask(session.user.email))
                    )
                }
            case (.supabase(let client), .supabaseTokenHash(let hash, let type)):
                let session = try await retrying { () async throws(SessionError) in
                    try await client.verify(tokenHash: hash, type: type)
                }
                return .success(Established(accessToken: session.accessToken, account: Self.mask(session.user.email)))
            case (.supabase(let client), .supabasePKCE(let code, let verifier)):
                let session = try await retrying { () async throws(SessionError) in
                    try await client.exchange(code: code, verifier: verifier)
                }
                return .success(Established(accessToken: session.accessToken, account: Self.mask(session.user.email)))
            case (.appServices, .appServices):
                return .success(Established(accessToken: nil, account: "your \(appName) account"))
            case (.supabase, .appServices), (.appServices, _):
                return .failure(.badResponse("this backend cannot reset this link"))
            }
        } catch {
            return .failure(error)
        }
    }

    /// Sends the password once; for Supabase then signs the link's session out (`scope=local`), which may fail
    /// without undoing the change.
    private func setPassword(_ password: Secret, _ session: Established) async -> Result<Bool, SessionError> {
        do throws(SessionError) {
            switch (backend, material) {
            case (.supabase(let client), _):
                guard let accessToken = session.accessToken else { return .failure(.badResponse("no session")) }
                try await client.updatePassword(password, accessToken: accessToken)
                let signedOut = (try? await client.logout(accessToken: accessToken)) != nil
                return .success(signedOut)
            case (.appServices(let client), .appServices(let token, let tokenID)):
                try await client.resetPassword(password, token: token, tokenID: tokenID.revealed())
                return .success(false)
            case (.appServices, _):
                return .failure(.badResponse("this backend cannot reset this link"))
            }
        } catch {
            return .failure(error)
        }
    }

    private func retrying<T>(_ step: () async throws(SessionError) -> T) async throws(SessionError) -> T {
        var attempt = 0
        while true {
            do {
                return try await step()
            } catch {
                guard attempt + 1 < 3, Self.isWorthRetrying(error) else { throw error }
                try? await Task.sleep(for: Self.retryDelays[attempt])
                attempt += 1
            }
        }
    }

    static func isWorthRetrying(_ error: SessionError) -> Bool {
        switch error {
        case .transport(.unreachable), .transport(.timedOut): true
        case .backend(let backend): [502, 503, 504].contains(backend.status)
        case .transport(.insecureURL), .badResponse: false
        }
    }

    private static func mask(_ email: String) -> String {
        email.isEmpty ? "this account" : JWTClaims.mask(email)
    }
}
