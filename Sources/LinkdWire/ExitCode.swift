/// The exit codes of `linkd` (sysexits.h where one fits).
package enum ExitCode: Int32, Sendable, Comparable {
    /// Every link was routed or delivered.
    case success = 0
    /// Some link matched no route.
    case unmatched = 1
    /// The command line was wrong (`EX_USAGE`).
    case usage = 64
    /// Some link was invalid or refused as unsafe (`EX_DATAERR`).
    case invalid = 65
    /// The daemon or the backend is unavailable (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// A temporary failure; retry later (`EX_TEMPFAIL`).
    case temporaryFailure = 75
    /// Permission refused (`EX_NOPERM`).
    case permission = 77

    /// Orders codes by severity, so that a run over several links can keep the worst.
    package static func < (lhs: ExitCode, rhs: ExitCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
