import FoundationEssentials
import Glibc
import LinkdConfig
import LinkdRouting
import LinkdSystem

/// What `linkd status` reports: per scheme which desktop file GIO resolves now, the daemon's socket, the systemd
/// units, the apps loaded and any problem in the files linkd reads.
package enum DesktopStatus {
    /// One line per fact, in order.
    package static func report(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var lines: [String] = []
        let registrar = Registrar(environment: environment)
        var schemes: [String] = []
        if access(registrar.desktopFile, F_OK) == 0 {
            if let data = FileManager.default.contents(atPath: registrar.desktopFile),
                let text = String(validating: data, as: UTF8.self)
            {
                schemes = DesktopEntry.schemes(in: text)
                lines.append("desktop file: \(registrar.desktopFile) (schemes: \(schemes.joined(separator: ", ")))")
                if let problem = DesktopEntry.execProblem(in: text) { lines.append("  problem: \(problem)") }
            } else {
                lines.append("desktop file: \(registrar.desktopFile) cannot be read")
            }
        } else {
            lines.append("desktop file: none (run 'linkd register')")
        }
        if access(registrar.mimeApps, F_OK) == 0 {
            let data = FileManager.default.contents(atPath: registrar.mimeApps)
            if data.flatMap({ String(validating: $0, as: UTF8.self) }) == nil {
                lines.append(
                    "mimeapps.list: \(registrar.mimeApps) cannot be read as UTF-8 text; linkd leaves it as it is"
                )
            }
        }
        let loaded = ConfigLoader.installed(environment: environment).load()
        let claimed = loaded.apps.flatMap { $0.links.map(\.match.scheme) }.filter { !Registrar.webSchemes.contains($0) }
        for scheme in Set(schemes + claimed).sorted() { lines.append(schemeLine(scheme)) }
        let units = unitStates()  // one systemctl call for both lines
        lines.append(daemonLine(environment, socketUnitActive: units?.first == "active"))
        lines.append(
            units.map { "systemd: linkd.socket \($0[0]), linkd.service \($0[1])" }
                ?? "systemd: no user manager answers (linkd starts on demand)"
        )
        lines.append(
            "apps: "
                + (loaded.apps.isEmpty
                    ? "none" : loaded.apps.map { "\($0.app) (\($0.links.count) links)" }.joined(separator: ", "))
        )
        for error in loaded.errors { lines.append("config problem: \(error)") }
        return lines
    }

    private static func schemeLine(_ scheme: String) -> String {
        guard let (_, output) = Self.run(["/usr/bin/gio", "mime", "x-scheme-handler/" + scheme]) else {
            return "scheme \(scheme): cannot ask GIO (gio is not installed)"
        }
        let first = output.split(separator: "\n").first.map(String.init) ?? ""
        guard first.hasPrefix("Default application for"), let colon = first.lastIndex(of: ":") else {
            return "scheme \(scheme): no handler (run 'linkd register \(scheme)')"
        }
        let handler = first[first.index(after: colon)...].trimmingSpaces
        return handler == DesktopEntry.id
            ? "scheme \(scheme): GIO opens it with \(handler) (linkd)"
            : "scheme \(scheme): GIO opens it with \(handler), not linkd"
    }

    private static func daemonLine(_ environment: [String: String], socketUnitActive: Bool) -> String {
        guard let paths = try? DaemonPaths.resolve(environment: environment) else {
            return "daemon: no XDG_RUNTIME_DIR"
        }
        if socketUnitActive {
            return "daemon: activatable by systemd (linkd.socket is active) on \(paths.socket)"
        }
        if let connection = try? UnixSocket.connect(path: paths.socket) {
            connection.close()
            return "daemon: listening on \(paths.socket)"
        }
        if access(paths.socket, F_OK) == 0 { return "daemon: down (stale socket file \(paths.socket))" }
        return "daemon: down (the next 'linkd open' starts it)"
    }
}

extension DesktopStatus {
    /// The states of `linkd.socket` and `linkd.service` (`active`, `inactive`, `failed`…) as the user manager
    /// reports them, or `nil` when no manager answers.
    fileprivate static func unitStates() -> [String]? {
        guard
            let (_, output) = Self.run(["/usr/bin/systemctl", "--user", "is-active", "linkd.socket", "linkd.service"])
        else { return nil }
        let states = output.split(separator: "\n").map(String.init)
        return states.count == 2 ? states : nil
    }

    /// Runs a helper program (`gio`, `systemctl`) and returns its exit status and output; `nil` when it cannot be
    /// started (its exec failed: status 127).
    fileprivate static func run(_ arguments: [String]) -> (status: Int32, output: String)? {
        let environment = ProcessInfo.processInfo.environment
        guard let (status, output) = try? Subprocess(arguments, environment: environment).run(), status != 127 else {
            return nil
        }
        return (status, String(decoding: output, as: UTF8.self))
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }

}
