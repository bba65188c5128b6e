import FoundationEssentials
package import LinkdConfig
import LinkdSystem

extension DesktopStatus {
    private static let gio = "/usr/bin/gio"

    /// Looks at the files, asks GIO and the systemd user manager, and tries the daemon's socket; the apps.d links
    /// name `actions`.
    package static func gather(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        actions: ActionKinds
    ) -> DesktopStatus {
        let registrar = Registrar(environment: environment, actions: actions)
        let entry: Entry
        if FileSystem.permissions(of: registrar.desktopFile) == nil {
            entry = .missing
        } else if let text = try? registrar.read(registrar.desktopFile) {
            entry = .read(schemes: DesktopEntry.schemes(in: text), problem: DesktopEntry.execProblem(in: text))
        } else {
            entry = .unreadable
        }
        var isMimeAppsUnreadable = false
        do throws(Registrar.Problem) {
            _ = try registrar.read(registrar.mimeApps)
        } catch {
            isMimeAppsUnreadable = true
        }
        let loaded = registrar.config.load()
        var declared: [String] = []
        if case .read(let schemes, _) = entry { declared = schemes }
        let names = Set(declared + Registrar.claimedSchemes(of: loaded.apps)).sorted()
        let canAskGIO = FileSystem.permissions(of: gio) != nil
        let units = unitStates(environment)
        return DesktopStatus(
            desktopFile: registrar.desktopFile,
            entry: entry,
            mimeApps: registrar.mimeApps,
            isMimeAppsUnreadable: isMimeAppsUnreadable,
            canAskGIO: canAskGIO,
            schemes: names.map { SchemeHandler(scheme: $0, handler: canAskGIO ? handler(of: $0, environment) : nil) },
            daemon: daemon(environment, socketUnitActive: units?.socket == "active"),
            units: units,
            apps: loaded.apps.map { App(name: $0.app, links: $0.links.count) },
            configProblems: loaded.errors.map(\.description)
        )
    }

    /// The desktop file id GIO opens `scheme` with (`gio mime x-scheme-handler/<scheme>`), `nil` for none.
    private static func handler(of scheme: String, _ environment: [String: String]) -> String? {
        guard let (_, output) = run([gio, "mime", Registrar.key(of: scheme)], environment) else {
            return nil
        }
        let first = output.split(separator: "\n").first.map(String.init) ?? ""
        guard first.hasPrefix("Default application for"), let colon = first.lastIndex(of: ":") else { return nil }
        return String(first[first.index(after: colon)...].drop(while: { $0 == " " }))
    }

    private static func daemon(_ environment: [String: String], socketUnitActive: Bool) -> Daemon {
        guard let paths = try? DaemonPaths.resolve(environment: environment) else { return .noRuntimeDirectory }
        if socketUnitActive { return .activatable(socket: paths.socket) }
        if let connection = try? UnixSocket.connect(path: paths.socket) {
            connection.close()
            return .listening(socket: paths.socket)
        }
        return FileSystem.permissions(of: paths.socket) == nil
            ? .down(socket: paths.socket) : .staleSocket(socket: paths.socket)
    }

    /// The states of `linkd.socket` and `linkd.service` as the user manager reports them (one `systemctl` call), or
    /// `nil` when no manager answers.
    private static func unitStates(_ environment: [String: String]) -> Units? {
        let arguments = ["/usr/bin/systemctl", "--user", "is-active", "linkd.socket", "linkd.service"]
        guard let (_, output) = run(arguments, environment) else { return nil }
        let states = output.split(separator: "\n").map(String.init)
        guard states.count == 2 else { return nil }
        let listing = [
            "/usr/bin/systemctl", "--user", "list-units", "--plain", "--no-legend", "--state=active,activating",
        ]
        let programs = run(listing + ["app-linkd-*"], environment)?.output.split(separator: "\n").compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
        return Units(socket: states[0], service: states[1], programs: programs ?? [])
    }

    /// Runs a helper program (`gio`, `systemctl`) and returns its exit status and output; `nil` when it cannot be
    /// started (its exec failed: status 127).
    private static func run(_ arguments: [String], _ environment: [String: String]) -> (status: Int32, output: String)?
    {
        guard let (status, output) = try? Subprocess(arguments, environment: environment).run(), status != 127 else {
            return nil
        }
        return (status, String(decoding: output, as: UTF8.self))
    }
}
