import Foundation
import Glibc
import LinkdSystem

/// A private mount namespace for fault tests: a process of its own (`unshare -m --propagation private`) runs a
/// setup script in it (a small tmpfs, a read-only bind mount) and then holds it open. `linkd` runs in it through
/// `nsenter` (``launcher``), and the test reaches its files through `/proc/PID/root` (``outside(_:)``). No other
/// process of the machine sees these mounts, and they go once the holder and whatever ran inside have exited.
///
/// The holder is killed when the value goes, or when the test process dies.
package final class PrivateMount: Sendable {
    /// Whether one can be made here: as root, with `unshare` and `nsenter`.
    package static var isAvailable: Bool {
        getuid() == 0 && access("/usr/bin/unshare", X_OK) == 0 && access("/usr/bin/nsenter", X_OK) == 0
    }

    private let holder: SpawnedProcess

    /// Makes the namespace and runs `setup` (`/bin/sh` lines, stopping at the first that fails) in it.
    ///
    /// - Throws: ``HarnessError/exitedEarly(program:status:)`` when `setup` fails, or an error starting `unshare`.
    package init(setup: String) throws {
        var subprocess = Subprocess(
            [
                "/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c",
                "set -e\n\(setup)\necho mounted\nexec sleep 3600",
            ],
            environment: ProcessInfo.processInfo.environment
        )
        subprocess.output = .pipe
        subprocess.diesWithParent = true
        holder = try SpawnedProcess(subprocess)
        let line = try holder.readOutputLine(for: "the private mounts", timeout: .seconds(10))
        guard line == "mounted" else { throw HarnessError.failed(program: "unshare", status: -1) }
    }

    deinit {
        kill(holder.pid, SIGKILL)
        holder.waitUntilExit()
    }

    /// What runs a program inside, put before its path and arguments.
    package var launcher: [String] { ["/usr/bin/nsenter", "--target", "\(holder.pid)", "--mount", "--"] }

    /// `path`, as it is inside, for the test's own file calls.
    package func outside(_ path: String) -> String { "/proc/\(holder.pid)/root" + path }
}
