/// What `linkd status` reports: linkd's desktop file, which desktop file GIO opens each scheme with, whether the
/// daemon can be reached, the systemd units, the apps loaded and the problems in the files linkd reads.
package struct DesktopStatus: Sendable, Equatable {
    /// linkd's desktop file, as found.
    package enum Entry: Sendable, Equatable {
        /// There is none.
        case missing
        /// It exists but cannot be read as UTF-8 text.
        case unreadable
        /// The schemes it declares, and what is wrong with its `Exec=` line (`nil` when nothing is).
        case read(schemes: [String], problem: String?)
    }

    /// A scheme linkd or an app claims, and the desktop file GIO opens its links with.
    package struct SchemeHandler: Sendable, Equatable {
        /// The scheme, lower case.
        package var scheme: String
        /// The desktop file id GIO resolves (`gio mime x-scheme-handler/<scheme>`); `nil` when there is none or
        /// GIO cannot be asked.
        package var handler: String?

        /// Whether the scheme's links open in linkd.
        package var opensInLinkd: Bool { handler == DesktopEntry.id }
    }

    /// Whether and how the daemon can be reached.
    package enum Daemon: Sendable, Equatable {
        /// A daemon accepts connections on the socket.
        case listening(socket: String)
        /// `linkd.socket` is active: systemd starts the daemon on the first connection.
        case activatable(socket: String)
        /// Nothing listens, but the socket file is still there.
        case staleSocket(socket: String)
        /// Nothing listens; the next `linkd open` starts a daemon.
        case down(socket: String)
        /// `XDG_RUNTIME_DIR` is not set, so there is no place for the socket.
        case noRuntimeDirectory

        /// Whether a link sent now reaches a daemon: one listens, systemd starts one, or `linkd open` starts one
        /// (it replaces a stale socket file); only with no runtime folder is there no place for it.
        package var isReachable: Bool {
            switch self {
            case .listening, .activatable, .staleSocket, .down: true
            case .noRuntimeDirectory: false
            }
        }

        /// The socket's path, `nil` when there is no runtime folder.
        package var socket: String? {
            switch self {
            case .listening(let path), .activatable(let path), .staleSocket(let path), .down(let path): path
            case .noRuntimeDirectory: nil
            }
        }
    }

    /// The states of linkd's systemd user units (`active`, `inactive`, `failed`…), and the units the programs of
    /// links run in (`app-linkd-<app>@<random>.service`) that are running.
    package struct Units: Sendable, Equatable {
        package var socket: String
        package var service: String
        package var programs: [String] = []
    }

    /// An app loaded from apps.d.
    package struct App: Sendable, Equatable {
        /// Its name (`com.example.Notes`).
        package var name: String
        /// How many links it claims.
        package var links: Int
    }

    /// linkd's desktop file's path.
    package var desktopFile: String
    /// linkd's desktop file, as found.
    package var entry: Entry
    /// The `mimeapps.list` `linkd register` writes.
    package var mimeApps: String
    /// Whether that list exists but is not UTF-8 text (linkd leaves it alone then).
    package var isMimeAppsUnreadable: Bool
    /// Whether `gio` could be run to resolve the handlers.
    package var canAskGIO: Bool
    /// Every scheme linkd's desktop file declares or an app claims, sorted.
    package var schemes: [SchemeHandler]
    /// Whether and how the daemon can be reached.
    package var daemon: Daemon
    /// The units' states, `nil` when no systemd user manager answers.
    package var units: Units?
    /// The apps loaded, in folder, then file-name order.
    package var apps: [App]
    /// Each problem in the apps.d files.
    package var configProblems: [String]

    /// Whether every scheme opens in linkd and the daemon can be reached: `linkd status` exits 0 then, else 1.
    package var isHealthy: Bool { daemon.isReachable && schemes.allSatisfy(\.opensInLinkd) }
}
