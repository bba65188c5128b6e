import Foundation

/// The `openssl` command, for the doubles' own cryptography (an RSA key, its signatures, SHA-256), which must not be
/// linkd's: started with the harness's own spawning (``SpawnedProcess``), its input and output in files of a
/// private folder, never through Foundation's `Process`, which these threads share with the tests.
enum OpenSSLCommand {
    /// Runs `openssl` with `arguments`, `input` on its standard input; its standard output, or nil when it fails.
    static func run(_ arguments: [String], input: Data = Data()) -> Data? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-openssl-" + UUID().uuidString)
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)) != nil else {
            return nil
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let stdin = folder.appendingPathComponent("in")
        let stdout = folder.appendingPathComponent("out")
        guard (try? input.write(to: stdin)) != nil,
            let process = try? SpawnedProcess(
                "/usr/bin/openssl",
                arguments,
                environment: ["PATH": "/usr/bin:/bin"],
                stdinPath: stdin.path,
                stdoutPath: stdout.path
            )
        else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return try? Data(contentsOf: stdout)
    }
}
