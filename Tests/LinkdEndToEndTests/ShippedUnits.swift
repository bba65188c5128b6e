import Foundation
import LinkdTestSupport

/// The shipped units copied to a scratch folder, `ExecStart` pointing at the built binary, with an
/// `XDG_RUNTIME_DIR` of their own for `systemd-analyze --user`. The folder goes with the value.
final class ShippedUnits {
    let folder: URL
    /// The environment for `systemd-analyze`: the machine's, with the folder's runtime directory.
    let environment: [String: String]

    var service: URL { folder.appendingPathComponent("linkd.service") }
    var socket: URL { folder.appendingPathComponent("linkd.socket") }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "linkd-units-\(UUID().uuidString.prefix(8))"
        )
        let runtime = folder.appendingPathComponent("xrt")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let repository = SystemdActivationTests.repository
        let text = try String(
            contentsOf: repository.appendingPathComponent("packaging/systemd/linkd.service"),
            encoding: .utf8
        )
        try Data(text.replacingOccurrences(of: "/usr/bin/linkd", with: LinkdProcess.executable.path).utf8)
            .write(to: folder.appendingPathComponent("linkd.service"))
        try FileManager.default.copyItem(
            at: repository.appendingPathComponent("packaging/systemd/linkd.socket"),
            to: folder.appendingPathComponent("linkd.socket")
        )
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        self.environment = environment
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `systemd-analyze` with `arguments` and waits for it.
    ///
    /// - Returns: its exit status and what it wrote to stdout and stderr.
    func analyze(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (Int32, String) {
        let output = folder.appendingPathComponent("analyze-\(UUID().uuidString.prefix(8))").path
        let process = try SpawnedProcess(
            "/usr/bin/systemd-analyze",
            arguments,
            environment: environment.merging(extra) { $1 },
            stdoutPath: output,
            stderrPath: output + ".err"
        )
        process.waitUntilExit()
        let text =
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
            + ((try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? "")
        return (process.terminationStatus, text)
    }
}
