import LinkdSession

/// The backend error `body` throws, or nil when it succeeds or fails in another way.
func backendError(_ body: () async throws(SessionError) -> Void) async -> BackendError? {
    do {
        try await body()
        return nil
    } catch {
        guard case .backend(let backend) = error else { return nil }
        return backend
    }
}
