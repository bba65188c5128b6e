import Foundation
import Testing

/// Runs the built `linkd` binary as a child process and collects what it printed.
struct LinkdProcess {
    struct Output: Equatable, CustomStringConvertible {
        var stdout: String
        var stderr: String
        var status: Int32
        var description: String { "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    static var executable: URL {
        Bundle.main.bundleURL.appendingPathComponent("linkd")
    }

    /// Runs `linkd` with `arguments` (raw bytes allowed) and `stdin`, waiting for it to exit.
    static func run(_ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:]) throws -> Output {
        // No installed apps leak in from the machine: a fresh XDG_CONFIG_HOME unless the test gives one.
        var merged = ProcessInfo.processInfo.environment
        merged["XDG_CONFIG_HOME"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("linkd-empty-config").path
        for (key, value) in environment { merged[key] = value }
        let files = SpawnFiles.make()
        defer { try? FileManager.default.removeItem(at: files) }
        let input = files.appendingPathComponent("stdin")
        try stdin.write(to: input)
        let process = try SpawnedProcess(
            executable.path,
            arguments,
            environment: merged,
            stdinPath: input.path,
            stdoutPath: files.appendingPathComponent("stdout").path,
            stderrPath: files.appendingPathComponent("stderr").path
        )
        process.waitUntilExit()
        let read = { (name: String) in
            String(decoding: (try? Data(contentsOf: files.appendingPathComponent(name))) ?? Data(), as: UTF8.self)
        }
        return Output(stdout: read("stdout"), stderr: read("stderr"), status: process.terminationStatus)
    }
}
