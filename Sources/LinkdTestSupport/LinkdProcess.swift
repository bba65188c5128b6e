package import Foundation

/// Runs the built `linkd` binary as a child process and collects what it printed.
package enum LinkdProcess {
    /// What one run printed, and how it ended.
    package struct Output: Equatable, Sendable, CustomStringConvertible {
        package var stdout: String
        package var stderr: String
        /// The exit status; `128 + signal` for a signal death.
        package var status: Int32

        /// An output with these streams and status.
        package init(stdout: String, stderr: String, status: Int32) {
            (self.stdout, self.stderr, self.status) = (stdout, stderr, status)
        }

        package var description: String { "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    /// The `linkd` the package built: it lies beside the test bundle (`Bundle.main` is the test runner of whichever
    /// test target links this library).
    package static var executable: URL {
        Bundle.main.bundleURL.appendingPathComponent("linkd")
    }

    /// The `XDG_CONFIG_HOME` of a run that names none: a folder that does not exist, of this test process alone, so
    /// that nothing a run writes there reaches another run.
    private static let emptyConfig = FileManager.default.temporaryDirectory
        .appendingPathComponent("linkd-empty-config-" + UUID().uuidString).path

    /// Runs `linkd` with `arguments` (raw bytes allowed) and `stdin`, waiting for it to exit.
    ///
    /// The machine's environment is passed on, with `environment` over it; unless it names one, `XDG_CONFIG_HOME` is
    /// an empty folder, so that no installed app leaks in. A `launcher` (``PrivateMount/launcher``) runs it;
    /// `executable` is another copy of linkd to run (an installed one). While it runs, `watch` is asked every second
    /// whether to give up on it; when it gives a reason, linkd is killed and the reason ends its standard error.
    ///
    /// - Throws: when the scratch files cannot be written or `linkd` cannot be started.
    package static func run(
        _ arguments: [String],
        stdin: Data = Data(),
        environment: [String: String] = [:],
        launcher: [String] = [],
        executable: URL = executable,
        watch: () -> String? = { nil }
    ) throws -> Output {
        var merged = ProcessInfo.processInfo.environment
        merged["XDG_CONFIG_HOME"] = emptyConfig
        for (key, value) in environment { merged[key] = value }
        let files = SpawnFiles.make()
        defer { try? FileManager.default.removeItem(at: files) }
        let input = files.appendingPathComponent("stdin")
        try stdin.write(to: input)
        let command = launcher + [executable.path] + arguments
        let process = try SpawnedProcess(
            command[0],
            Array(command.dropFirst()),
            environment: merged,
            stdinPath: input.path,
            stdoutPath: files.appendingPathComponent("stdout").path,
            stderrPath: files.appendingPathComponent("stderr").path
        )
        let stopped = process.waitUntilExit(every: .seconds(1), stoppingWhen: watch)
        let read = { (name: String) in
            String(decoding: (try? Data(contentsOf: files.appendingPathComponent(name))) ?? Data(), as: UTF8.self)
        }
        let stderr = read("stderr") + (stopped.map { "[the test gave up on linkd: \($0)]\n" } ?? "")
        return Output(stdout: read("stdout"), stderr: stderr, status: process.terminationStatus)
    }
}
