import Foundation

extension DaemonHarness {
    /// This world's environment plus HOME, XDG_DATA_HOME and no display or session bus: a desktop session's
    /// environment with nobody at the screen.
    package var desktopEnvironment: [String: String] {
        var environment = self.environment
        environment["HOME"] = root.path
        environment["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
        environment["XDG_DATA_DIRS"] = "/usr/share"
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_CURRENT_DESKTOP", "BROWSER"] {
            environment.removeValue(forKey: key)
        }
        return environment
    }

    /// The text of the file at `path` under the world's folder, `nil` when there is none.
    package func file(_ path: String) -> String? {
        try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Runs `program` (a desktop tool) in `environment`: its exit status and standard output.
    ///
    /// - Throws: when it cannot be started.
    package func runProgram(
        _ program: String,
        _ arguments: [String],
        _ environment: [String: String]
    ) throws -> (
        status: Int32, output: String
    ) {
        try DesktopTool.run(program, arguments, environment, scratch: root)
    }

    /// The desktop file GIO opens `scheme` with in `environment`, `nil` when it has none.
    ///
    /// - Throws: when `gio` cannot be started.
    package func gioDefault(of scheme: String, _ environment: [String: String]) throws -> String? {
        try DesktopTool.gioDefault(of: scheme, environment, scratch: root)
    }
}
