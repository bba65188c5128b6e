import Foundation
import Glibc

/// TLS in front of a test double: a real TLS 1.2/1.3 server on 127.0.0.1 (Python's `ssl` module, test tooling only)
/// that forwards each connection's plain bytes to `127.0.0.1:<port>`. Its certificate is signed by the test CA of
/// `scripts/make-test-ca`.
package final class TLSProxy: Sendable {
    /// The port it listens on.
    package let port: UInt16
    private let process: Process

    /// `https://127.0.0.1:<port>`.
    package var baseURL: String { "https://127.0.0.1:\(port)" }

    /// - Parameters:
    ///   - target: the plain HTTP port to forward to.
    ///   - certificate, key: the server's PEM files.
    package init(forwardingTo target: UInt16, certificate: String, key: String) throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-tls-proxy.py")
        try Data(Self.script.utf8).write(to: script)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, certificate, key, String(target)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        guard let port = UInt16(String(decoding: line, as: UTF8.self)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    deinit {
        // SIGKILL: a child of the test runner inherits its blocked signals, SIGTERM among them.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static let script = """
        import socket, ssl, sys, threading
        certificate, key, target = sys.argv[1], sys.argv[2], int(sys.argv[3])
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(32)
        print(server.getsockname()[1], flush=True)

        def pump(source, sink):
            try:
                while True:
                    data = source.recv(65536)
                    if not data:
                        break
                    sink.sendall(data)
            except OSError:
                pass
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        def serve(connection):
            try:
                secure = context.wrap_socket(connection, server_side=True)
            except (ssl.SSLError, OSError):
                connection.close()
                return
            upstream = socket.create_connection(("127.0.0.1", target))
            threading.Thread(target=pump, args=(secure, upstream), daemon=True).start()
            pump(upstream, secure)

        for connection, _ in iter(server.accept, None):
            threading.Thread(target=serve, args=(connection,), daemon=True).start()

        """
}
