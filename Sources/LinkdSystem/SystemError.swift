import Glibc

/// The error type of `LinkdSystem`: a system or libsystemd call that failed, with its ``Errno``, or libsystemd that
/// could not be loaded.
package enum SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `sd_listen_fds_with_names(3)` failed.
    case listenFailed(errno: Errno)
    /// `sd_notify(3)` failed.
    case notifyFailed(errno: Errno)
    /// `sd_journal_sendv(3)` failed.
    case journalFailed(errno: Errno)
    /// libsystemd could not be loaded (`dlopen(3)`'s reason).
    case libsystemdMissing(reason: String)
    /// `getsockopt(SO_PEERCRED)` failed.
    case peerCredentialsFailed(errno: Errno)
    /// `fork(2)` failed while starting a program.
    case spawnFailed(errno: Errno)
    /// A D-Bus call failed; `detail` is the bus error's name and message when there is one.
    case busFailed(operation: String, errno: Errno, detail: String?)
    /// A call on the file `path` failed; `operation` names it (`create`, `write`, `open`).
    case file(operation: String, path: String, errno: Errno)
    /// Another system call failed; `operation` names it.
    case systemCall(operation: String, errno: Errno)

    package var description: String {
        switch self {
        case .listenFailed(let code): "failed to read the sockets passed by systemd: \(code.description)"
        case .notifyFailed(let code): "failed to notify systemd: \(code.description)"
        case .journalFailed(let code): "failed to write to the journal: \(code.description)"
        case .libsystemdMissing(let reason): "failed to load libsystemd: \(reason)"
        case .peerCredentialsFailed(let code): "failed to read the peer's credentials: \(code.description)"
        case .spawnFailed(let code): "failed to start a program: \(code.description)"
        case .busFailed(let operation, let code, let detail): "failed to \(operation): \(detail ?? code.description)"
        case .file(let operation, let path, let code): "failed to \(operation) '\(path)': \(code.description)"
        case .systemCall(let operation, let code): "failed to \(operation): \(code.description)"
        }
    }
}
