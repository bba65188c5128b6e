/// Runs one password reset with a backend and a link chosen at run time.
///
/// Deprecated: replaced by ``PasswordReset``, whose backend type fixes the kind of link it takes; this runner
/// hands each pair to it, and refuses a link of another backend's kind.
package struct ResetRunner: Sendable {
    /// How long the backend work of a whole reset may take in all (``PasswordReset/defaultBackendTimeLimit``).
    package static var defaultBackendTimeLimit: Duration { PasswordReset<SupabaseBackend>.defaultBackendTimeLimit }

    /// What a successful reset did.
    package typealias Success = ResetSuccess

    /// The reset the pair stands for, or the refusal of a link of the other backend's kind.
    private let reset: @Sendable (any PasswordSource) async -> Result<Success, ResetFailure>

    /// A reset of `material` against `backend`; nothing is sent until ``run(passwords:)``.
    ///
    /// - Parameters:
    ///   - appName: the app, for the prompt when the backend does not name the account.
    ///   - beforeSending: called just before the request that carries the password; `false` stops the reset.
    package init(
        backend: ResetBackend,
        material: ResetMaterial,
        appName: String,
        backendTimeLimit: Duration = Self.defaultBackendTimeLimit,
        beforeSending: @escaping @Sendable () async -> Bool = { true }
    ) {
        func reset<Backend: AuthBackend>(
            _ backend: Backend,
            _ material: Backend.Material
        ) -> @Sendable (any PasswordSource) async -> Result<Success, ResetFailure> {
            let reset = PasswordReset(
                backend: backend,
                material: material,
                appName: appName,
                backendTimeLimit: backendTimeLimit,
                beforeSending: beforeSending
            )
            return { await reset.run(passwords: $0) }
        }
        switch backend {
        case .supabase(let client):
            if let material = material.supabase {
                self.reset = reset(SupabaseBackend(client: client), material)
                return
            }
        case .appServices(let client):
            if let material = material.appServices {
                self.reset = reset(AppServicesBackend(client: client), material)
                return
            }
        }
        self.reset = { _ in .failure(ResetFailure(.badResponse("this backend cannot reset this link"))) }
    }

    /// Runs the reset as ``PasswordReset/run(passwords:)`` does.
    ///
    /// - Returns: the outcome; a link of the other backend's kind fails before anything is sent.
    package func run(passwords: some PasswordSource) async -> Result<Success, ResetFailure> {
        await reset(passwords)
    }
}
