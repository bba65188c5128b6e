import LinkdFormats

/// Runs one password reset against one backend: establishes the session the link stands for, asks for the new
/// password, sets it, and signs the link's session out.
///
/// Requests before the password is sent are retried (``RequestRetry``); the request that carries the password
/// never is. A password the backend refuses is asked again, with the refusal, at most five times in all. The
/// backend work of the whole reset has a time limit; the time the person takes to type the password is not counted.
package struct PasswordReset<Backend: AuthBackend>: Sendable {
    /// How long the backend work of a whole reset may take in all.
    package static var defaultBackendTimeLimit: Duration { RequestDeadline.backendTimeLimit }
    /// How many passwords one run sends at most (a terminal may try again after a refusal).
    static var maximumPasswords: Int { 5 }

    /// The backend the link belongs to.
    package let backend: Backend
    /// The link's material, of that backend's own kind.
    package let material: Backend.Material
    /// The app, named in the prompt beside the account.
    package let appName: String
    /// The backend time limit of the whole reset (``defaultBackendTimeLimit``).
    package let backendTimeLimit: Duration
    /// Called just before the request that carries the password goes out; `false` stops the reset (the daemon
    /// records "sent" in its spool here, and must not send what it could not record).
    package let beforeSending: @Sendable () async -> Bool

    /// A reset of `material` against `backend`; nothing is sent until ``run(passwords:)``.
    package init(
        backend: Backend,
        material: Backend.Material,
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

    /// Runs the reset, asking `passwords` for the new password once the link is known to be live and to be a reset
    /// email's, naming the account whole (``ResetAccount/prompt``). When the account has a second factor (MFA), its
    /// code is asked for first and proved, and the password is set with the stronger session; a backend that refuses
    /// the password for want of one (`insufficient_aal`) gets the code, then the same password again.
    ///
    /// - Returns: the account whose password changed, or why it did not: the link expired or was used, the
    ///   password or code was refused (after the last try), no password or code came, ``beforeSending`` said no, or
    ///   the backend failed. A failure once the request carrying the password may have reached the backend says the
    ///   password may have been set; one before it was sent (no name, no connection, no TLS) says that nothing
    ///   changed.
    package func run(passwords: some PasswordSource) async -> Result<ResetSuccess, ResetFailure> {
        var budget = backendTimeLimit
        var session: Backend.Session
        let account: ResetAccount
        switch await liveSession(codes: passwords, budget: &budget) {
        case .success(let value): (session, account) = value
        case .failure(let failure): return .failure(failure)
        }
        let prompt = account.prompt
        var rejection: BackendError?
        var steppedUpAfterRefusal = false
        var refusedForFactor: Secret?  // the password the backend refused for want of a second factor
        for attempt in 1...Self.maximumPasswords {
            let given: Secret?
            if let refusedForFactor {
                given = refusedForFactor
            } else {
                given = await passwords.newPassword(prompt: prompt, rejection: rejection)
            }
            refusedForFactor = nil
            guard let password = given else {
                if let rejection { return .failure(ResetFailure(.backend(rejection))) }
                return .failure(ResetFailure(kind: .cancelled, message: "no new password was given; nothing changed"))
            }
            guard await beforeSending() else {
                return .failure(ResetFailure(kind: .temporary, message: "linkd cannot record the reset; nothing sent"))
            }
            let outcome = await timed(&budget) { await send(password, in: session) }
            switch outcome {
            case .success(let signedOut):
                return .success(ResetSuccess(account: account.masked, signedOut: signedOut))
            case .failure(.backend(let error)) where error.kind == .passwordRejected:
                guard attempt < Self.maximumPasswords else { return .failure(ResetFailure(.backend(error))) }
                rejection = error
            case .failure(.backend(let error)) where error.kind == .secondFactorRequired && !steppedUpAfterRefusal:
                // Refused before the password was taken: prove the factor, then send the same password again.
                steppedUpAfterRefusal = true
                switch await stepUp(session, account: account, afterRefusal: true, codes: passwords, budget: &budget) {
                case .success(let stronger?): session = stronger
                case .success(nil): return .failure(ResetFailure(.backend(error)))
                case .failure(let failure): return .failure(failure)
                }
                refusedForFactor = password
            case .failure(let error):
                return .failure(Self.sendFailure(error))
            }
        }
        preconditionFailure("every attempt returns or asks again")
    }

    /// The reset's session, once the link is known to be live and to be a reset email's, stepped up to the account's
    /// second factor when it has one; and the account.
    private func liveSession(
        codes: some PasswordSource,
        budget: inout Duration
    ) async -> Result<(Backend.Session, ResetAccount), ResetFailure> {
        let established = await timed(&budget) { await establish() }
        let session: Backend.Session
        let account: ResetAccount
        switch established {
        case .success(let value): (session, account) = value
        case .failure(let error): return .failure(ResetFailure(error))
        }
        switch await stepUp(session, account: account, afterRefusal: false, codes: codes, budget: &budget) {
        case .success(let stronger): return .success((stronger ?? session, account))
        case .failure(let failure): return .failure(failure)
        }
    }

    /// Why the request carrying the password failed, and whether the password may have been set.
    private static func sendFailure(_ error: SessionError) -> ResetFailure {
        switch error {
        case .backend(let error):
            return ResetFailure(.backend(error))
        case .transport(let error) where !error.mayHaveReachedBackend:
            // It failed before the request carrying the password was sent: nothing changed.
            var failure = ResetFailure(.transport(error))
            failure.message += "; the new password was not sent, so nothing changed: open the link again"
            return failure
        case .transport, .badResponse, .notAnEmailedLink, .noUsableSecondFactor:
            // No answer to the request that carried the password: it may have been set.
            var failure = ResetFailure(error)
            failure.message += "; the new password may have been set: try signing in with it, or request a new email"
            return failure
        }
    }

    /// Proves the account's second factor when it has one: asks `codes` for its code (again after a wrong one, see
    /// ``CodeRounds``) and returns the stronger session; `nil` when no factor is needed.
    private func stepUp(
        _ session: Backend.Session,
        account: ResetAccount,
        afterRefusal: Bool,
        codes: some PasswordSource,
        budget: inout Duration
    ) async -> Result<Backend.Session?, ResetFailure> {
        let found = await timed(&budget) { () async -> Result<SecondFactor?, SessionError> in
            do throws(SessionError) {
                return .success(try await backend.secondFactor(of: session, afterRefusal: afterRefusal, retry: .init()))
            } catch {
                return .failure(error)
            }
        }
        let factor: SecondFactor
        switch found {
        case .success(let value?): factor = value
        case .success(nil): return .success(nil)
        case .failure(let error): return .failure(ResetFailure(error))
        }
        let prompt = factor.prompt(email: account.email, app: account.app)
        let outcome = await CodeRounds.run(prompt: prompt, codes: codes) { (code) async throws(SessionError) in
            try await timed(&budget) { () async -> Result<Backend.Session, SessionError> in
                do throws(SessionError) {
                    return .success(try await backend.proveSecondFactor(factor, code: code, in: session))
                } catch {
                    return .failure(error)
                }
            }.get()
        }
        switch outcome {
        case .proved(let stronger): return .success(stronger)
        case .noCode: return .failure(ResetFailure(kind: .cancelled, message: "no code was given; nothing changed"))
        case .failed(let error): return .failure(ResetFailure(error))
        }
    }

    /// Runs `work` with the deadline `budget` leaves, and takes the time it took from `budget`: the time a person
    /// takes to answer a question is not counted.
    private func timed<T: Sendable>(_ budget: inout Duration, _ work: () async -> T) async -> T {
        let started = ContinuousClock.now
        let result = await RequestDeadline.$current.withValue(started + budget) { await work() }
        budget -= ContinuousClock.now - started
        return result
    }

    private func establish() async -> Result<(Backend.Session, ResetAccount), SessionError> {
        do throws(SessionError) {
            let established = try await backend.establish(material, appName: appName, retry: RequestRetry())
            return .success((established.session, established.account))
        } catch {
            return .failure(error)
        }
    }

    /// Sends the password once, then signs the session out, which may fail without undoing the change.
    private func send(_ password: Secret, in session: Backend.Session) async -> Result<Bool, SessionError> {
        do throws(SessionError) {
            try await backend.setPassword(password, in: session)
        } catch {
            return .failure(error)
        }
        return .success(await backend.signOut(session))
    }
}
