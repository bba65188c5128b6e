/// Why a test harness could not set up the world a test asked for.
package enum HarnessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `what` did not happen within `timeout`.
    case timedOut(waitingFor: String, after: Duration)
    /// `program` exited with `status` before it did what the harness waited for.
    case exitedEarly(program: String, status: Int32)
    /// `program` ran to its end but failed with `status`.
    case failed(program: String, status: Int32)
    /// No datagram socket could be bound at `path`.
    case cannotListen(path: String)
    /// A test double has no recovery session for `email` (no such user).
    case noRecoverySession(email: String)
    /// `what` was not what the harness waited for: it `got` something else.
    case unexpected(what: String, got: String)

    package var description: String {
        switch self {
        case .timedOut(let what, let timeout): "gave up waiting for \(what) after \(timeout)"
        case .exitedEarly(let program, let status): "'\(program)' exited with status \(status) before it was ready"
        case .failed(let program, let status): "'\(program)' failed with status \(status)"
        case .cannotListen(let path): "cannot listen on '\(path)'"
        case .noRecoverySession(let email): "the GoTrue double has no recovery session for '\(email)'"
        case .unexpected(let what, let got): "\(what) was '\(got)'"
        }
    }
}
