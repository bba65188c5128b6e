import Foundation
import Glibc
import LinkdSystem

/// A certificate authority for the TLS tests of the backend doubles (a backend's `caFile`), with server certificates
/// signed by it, all sharing one server key. Test data only: the keys are throwaway and trusted by nothing else.
///
/// Each test process makes its own set once, the first time a test asks for it, in a private folder of its own
/// (`/tmp/linkd-test-ca-<UUID>`, mode 0700) that goes when the process exits. Tests that ask at once wait for the
/// one maker, and no run sees a set that another run, or an interrupted one, left behind.
package struct TestCA: Sendable {
    /// The folder with the PEM files.
    package let directory: String
    /// The CA's certificate.
    package var certificate: String { directory + "/ca.pem" }
    /// The server certificate for 127.0.0.1 and localhost, signed by the CA, valid 30 days.
    package var serverCertificate: String { directory + "/server.pem" }
    /// The server certificates' key.
    package var serverKey: String { directory + "/server.key" }
    /// A certificate for 127.0.0.1 and localhost signed by the CA that expired a day before it was made.
    package var expiredCertificate: String { directory + "/expired.pem" }
    /// A certificate signed by the CA for `wrong.example` only.
    package var wrongHostCertificate: String { directory + "/wronghost.pem" }

    /// This test process's CA, made on the first call.
    ///
    /// - Throws: ``HarnessError`` when `openssl` cannot make a file (the same error to every caller).
    package static func make() throws -> TestCA { try made.get() }

    /// Made once per process: a `static let` is initialised by one thread while the others wait.
    private static let made = Result { () throws(HarnessError) -> TestCA in try TestCA.create() }

    private static func create() throws(HarnessError) -> TestCA {
        let ca = TestCA(directory: "/tmp/linkd-test-ca-" + UUID().uuidString)
        do {
            try FileManager.default.createDirectory(
                atPath: ca.directory,
                withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw .unexpected(what: "the test CA's folder '\(ca.directory)'", got: "\(error)")
        }
        removedAtExit.withLock { $0 = ca.directory }
        atexit {
            if let folder = TestCA.removedAtExit.withLock({ $0 }) {
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
        try ca.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca.directory + "/ca.key", "-out",
            ca.certificate, "-days", "30", "-subj", "/CN=linkd test CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        try ca.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", ca.serverKey])
        try ca.sign(ca.serverCertificate, days: 30, names: "IP:127.0.0.1,DNS:localhost")
        try ca.sign(ca.expiredCertificate, days: -1, names: "IP:127.0.0.1,DNS:localhost")
        try ca.sign(ca.wrongHostCertificate, days: 30, names: "DNS:wrong.example")
        return ca
    }

    /// The folder the process removes when it exits; set once, by the one maker.
    private static let removedAtExit = Lock<String?>(nil)

    /// Writes `file`, a certificate for the server key signed by the CA, valid `days` from now (-1: expired) for
    /// the subject alternative `names`.
    private func sign(_ file: String, days: Int, names: String) throws(HarnessError) {
        let request = file + ".csr"
        let extensions = file + ".ext"
        defer { for scratch in [request, extensions] { unlink(scratch) } }
        try openssl(["req", "-new", "-key", serverKey, "-out", request, "-subj", "/CN=linkd test server"])
        let lines = "subjectAltName=\(names)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
        guard FileManager.default.createFile(atPath: extensions, contents: Data(lines.utf8)) else {
            throw .unexpected(what: "the extensions file '\(extensions)'", got: "not written")
        }
        try openssl([
            "x509", "-req", "-in", request, "-CA", certificate, "-CAkey", directory + "/ca.key", "-set_serial",
            String(UInt32.random(in: 1...UInt32.max)), "-out", file, "-days", String(days), "-extfile", extensions,
        ])
    }

    private func openssl(_ arguments: [String]) throws(HarnessError) {
        guard OpenSSLCommand.run(arguments) != nil else {
            throw .failed(program: "openssl " + arguments.prefix(2).joined(separator: " "), status: 1)
        }
    }
}
