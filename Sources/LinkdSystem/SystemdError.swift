import Glibc

/// The error type of `LinkdSystem`: a system or libsystemd call that failed, with its errno.
package enum SystemdError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `sd_listen_fds_with_names(3)` failed.
    case listenFailed(errno: Int32)
    /// `sd_notify(3)` failed.
    case notifyFailed(errno: Int32)
    /// `sd_journal_sendv(3)` failed.
    case journalFailed(errno: Int32)
    /// `getsockopt(SO_PEERCRED)` failed.
    case peerCredentialsFailed(errno: Int32)
    /// `fork(2)` failed while starting a program.
    case spawnFailed(errno: Int32)
    /// A D-Bus call failed; `detail` is the bus error's name and message when there is one.
    case busFailed(operation: String, errno: Int32, detail: String?)
    /// Another system call failed; `operation` names it.
    case systemCall(operation: String, errno: Int32)

    package var description: String {
        switch self {
        case .listenFailed(let code): "failed to read the sockets passed by systemd: \(Self.text(code))"
        case .notifyFailed(let code): "failed to notify systemd: \(Self.text(code))"
        case .journalFailed(let code): "failed to write to the journal: \(Self.text(code))"
        case .peerCredentialsFailed(let code): "failed to read the peer's credentials: \(Self.text(code))"
        case .spawnFailed(let code): "failed to start a program: \(Self.text(code))"
        case .busFailed(let operation, let code, let detail): "failed to \(operation): \(detail ?? Self.text(code))"
        case .systemCall(let operation, let code): "failed to \(operation): \(Self.text(code))"
        }
    }

    /// `strerror(3)` for `code`.
    static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}
