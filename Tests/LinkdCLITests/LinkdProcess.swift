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
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // No installed apps leak in from the machine: a fresh XDG_CONFIG_HOME unless the test gives one.
        var merged = ProcessInfo.processInfo.environment
        merged["XDG_CONFIG_HOME"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("linkd-empty-config").path
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(stdin)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            status: process.terminationStatus
        )
    }
}
