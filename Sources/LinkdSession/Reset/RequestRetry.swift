/// How a request sent before the password is retried: at most 3 attempts, 0.5 s then 1 s apart, on connection
/// errors and on 502, 503 and 504.
///
/// A reset hands one to ``AuthBackend/establish(_:appName:retry:)``; the request that carries the password never
/// goes through it.
package struct RequestRetry: Sendable {
    /// The pauses between attempts (the third is never waited: there is no fourth attempt).
    static let delays: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2)]
    /// How many times one request is sent at most.
    static let attempts = 3

    /// Runs `step`, again after a pause while it fails in a way worth retrying.
    ///
    /// - Parameter step: one request; it must be safe to send twice (it carries no password).
    /// - Returns: what the first successful attempt returned.
    /// - Throws: the last attempt's error, or the first one that is not worth retrying.
    package func callAsFunction<T>(_ step: () async throws(SessionError) -> T) async throws(SessionError) -> T {
        var attempt = 0
        while true {
            do {
                return try await step()
            } catch {
                guard attempt + 1 < Self.attempts, Self.isWorthRetrying(error) else { throw error }
                try? await Task.sleep(for: Self.delays[attempt])
                attempt += 1
            }
        }
    }

    /// Whether another attempt may get an answer: no connection, no answer in time, or a gateway's 502/503/504.
    static func isWorthRetrying(_ error: SessionError) -> Bool {
        switch error {
        case .transport(.unreachable), .transport(.timedOut): true
        case .backend(let backend): [502, 503, 504].contains(backend.status)
        case .transport(.insecureURL), .badResponse, .notAnEmailedLink, .noUsableSecondFactor: false
        }
    }
}
