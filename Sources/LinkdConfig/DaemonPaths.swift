import FoundationEssentials
import LinkdSystem

/// Where the daemon and its clients meet: `$XDG_RUNTIME_DIR/linkd/` holds the socket (0600), the
/// spool and the start lock, in a 0700 folder; `$XDG_STATE_HOME/linkd/linkd.log` holds an autostarted daemon's log.
package struct DaemonPaths: Sendable, Equatable {
    /// `$XDG_RUNTIME_DIR/linkd`.
    package var runtimeDirectory: String

    /// `$XDG_RUNTIME_DIR` itself, the user's runtime folder that holds ``runtimeDirectory``.
    package var userRuntimeDirectory: String {
        String(runtimeDirectory[..<(runtimeDirectory.lastIndex(of: "/") ?? runtimeDirectory.endIndex)])
    }
    /// The socket (`$XDG_RUNTIME_DIR/linkd/socket`, or `--socket`).
    package var socket: String
    /// The spool of accepted links.
    package var spool: String
    /// The lock that makes one of several racing daemons the winner.
    package var lock: String
    /// The log of a daemon started by `linkd open`.
    package var log: String

    /// A problem finding the paths.
    package struct Missing: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The paths for `environment`; `socket` overrides the socket's path.
    ///
    /// - Throws: ``Missing`` when neither `XDG_RUNTIME_DIR` nor `/run/user/<uid>` exists.
    package static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        socket: String? = nil
    ) throws(Missing) -> DaemonPaths {
        let directories = XDGDirectories(environment: environment)
        var runtime = directories.runtimeDirectory
        if runtime == nil {
            let fallback = "/run/user/\(CurrentUser.id)"
            if FileManager.default.fileExists(atPath: fallback) { runtime = fallback }
        }
        guard let runtime else {
            throw Missing(description: "XDG_RUNTIME_DIR is not set, so there is no place for the linkd socket")
        }
        let directory = runtime + "/linkd"
        return DaemonPaths(
            runtimeDirectory: directory,
            socket: socket ?? directory + "/socket",
            spool: directory + "/spool",
            lock: directory + "/daemon.lock",
            log: directories.linkdState + "/linkd.log"
        )
    }
}
