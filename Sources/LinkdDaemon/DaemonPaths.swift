public import FoundationEssentials
import Glibc

/// Where the daemon and its clients meet (DESIGN.md §5): `$XDG_RUNTIME_DIR/linkd/` holds the socket (0600), the
/// spool and the start lock, in a 0700 folder; `$XDG_STATE_HOME/linkd/linkd.log` holds an autostarted daemon's log.
public struct DaemonPaths: Sendable, Equatable {
    /// `$XDG_RUNTIME_DIR/linkd`.
    public var runtimeDirectory: String
    /// The socket (`$XDG_RUNTIME_DIR/linkd/socket`, or `--socket`).
    public var socket: String
    /// The spool of accepted links.
    public var spool: String
    /// The lock that makes one of several racing daemons the winner.
    public var lock: String
    /// The log of a daemon started by `linkd open`.
    public var log: String

    /// A problem finding the paths.
    public struct Missing: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The paths for `environment`; `socket` overrides the socket's path.
    ///
    /// - Throws: ``Missing`` when neither `XDG_RUNTIME_DIR` nor `/run/user/<uid>` exists.
    public static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        socket: String? = nil
    ) throws(Missing) -> DaemonPaths {
        var runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if runtime == nil {
            let fallback = "/run/user/\(getuid())"
            if FileManager.default.fileExists(atPath: fallback) { runtime = fallback }
        }
        guard let runtime else {
            throw Missing(description: "XDG_RUNTIME_DIR is not set, so there is no place for the linkd socket")
        }
        let directory = runtime + "/linkd"
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
        return DaemonPaths(
            runtimeDirectory: directory,
            socket: socket ?? directory + "/socket",
            spool: directory + "/spool",
            lock: directory + "/daemon.lock",
            log: state + "/linkd/linkd.log"
        )
    }

    /// Creates `path` and its parents with mode 0700 (an existing folder gets 0700 too).
    public static func makePrivateDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: path,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        guard chmod(path, 0o700) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM) }
    }
}
