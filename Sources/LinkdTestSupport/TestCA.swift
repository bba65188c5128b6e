import Foundation

/// The test CA of `scripts/make-test-ca` (which `.ci/run` runs first; made here when missing), in `.build/test-ca`.
package struct TestCA: Sendable {
    /// The folder with the PEM files.
    package let directory: String
    /// The CA's certificate.
    package var certificate: String { directory + "/ca.pem" }
    /// The server certificate for 127.0.0.1, signed by the CA.
    package var serverCertificate: String { directory + "/server.pem" }
    /// The server certificates' key.
    package var serverKey: String { directory + "/server.key" }
    /// A certificate for 127.0.0.1 signed by the CA that expired a day before it was made.
    package var expiredCertificate: String { directory + "/expired.pem" }
    /// A certificate signed by the CA for `wrong.example` only.
    package var wrongHostCertificate: String { directory + "/wronghost.pem" }

    /// Runs `scripts/make-test-ca`, which makes the files unless they are there already.
    ///
    /// - Parameter filePath: a file two folders below the repository's root (the calling test file by default).
    /// - Throws: ``HarnessError/failed(program:status:)`` when the script fails, or an error starting it.
    package static func make(filePath: String = #filePath) throws -> TestCA {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let ca = TestCA(directory: root.appendingPathComponent(".build/test-ca").path)
        let script = root.appendingPathComponent("scripts/make-test-ca").path
        let process = try SpawnedProcess(script, [ca.directory], environment: ProcessInfo.processInfo.environment)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HarnessError.failed(program: script, status: process.terminationStatus)
        }
        return ca
    }
}
