import Glibc
import Synchronization

private let interrupted = Atomic<Bool>(false)

/// Ctrl-C for a command that waits: SIGINT sets a flag that the waiting loop reads, instead of ending the process at
/// once, so that the command can undo what it started before it exits.
package enum InterruptRequest {
    /// Catches SIGINT from now on (`signal(2)`); ``wasMade`` tells whether one came.
    package static func catchSignal() {
        _ = signal(SIGINT) { _ in interrupted.store(true, ordering: .relaxed) }
    }

    /// Whether SIGINT came since ``catchSignal()``.
    package static var wasMade: Bool { interrupted.load(ordering: .relaxed) }
}
