package import Foundation

/// The desktop's own tools (`gio`, `xdg-mime`), run as a test's children with the environment it gives them.
package enum DesktopTool {
    /// Runs `program` with `arguments` in `environment` and waits for it; its exit status and standard output,
    /// which goes through a file in `scratch`.
    ///
    /// - Throws: when it cannot be started.
    package static func run(
        _ program: String,
        _ arguments: [String],
        _ environment: [String: String],
        scratch: URL
    ) throws
        -> (status: Int32, output: String)
    {
        let output = scratch.appendingPathComponent("tool-\(UUID().uuidString.prefix(8)).out")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = try SpawnedProcess(program, arguments, environment: environment, stdoutPath: output.path)
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// The desktop file GIO opens `scheme` with (`gio mime x-scheme-handler/<scheme>`) in `environment`, `nil` when
    /// it has none.
    ///
    /// - Throws: when `gio` cannot be started.
    package static func gioDefault(of scheme: String, _ environment: [String: String], scratch: URL) throws -> String? {
        let first =
            try run("/usr/bin/gio", ["mime", "x-scheme-handler/" + scheme], environment, scratch: scratch).output
            .split(separator: "\n").first ?? ""
        guard first.hasPrefix("Default application for"), let colon = first.lastIndex(of: ":") else { return nil }
        return first[first.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
}
