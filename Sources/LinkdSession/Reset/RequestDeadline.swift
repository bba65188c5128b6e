/// When the requests of a reset must end; read by ``CurlTransport``.
///
/// A reset sets it around its backend work, so that retries and slow answers together cannot outlast the reset's
/// backend time limit. Without a value, only the transport's own per-request limits apply.
package enum RequestDeadline {
    /// The instant by which the current task's requests must end, or `nil` for no overall limit.
    @TaskLocal package static var current: ContinuousClock.Instant?

    /// How long the backend work of one link (a whole reset, a sign-in) may take in all.
    package static var backendTimeLimit: Duration { .seconds(60) }
}
