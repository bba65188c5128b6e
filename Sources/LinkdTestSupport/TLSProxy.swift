import Foundation
import Glibc

/// TLS in front of a test double: a real TLS 1.2/1.3 server on 127.0.0.1 (Python's `ssl` module, test tooling only)
/// that forwards each connection's plain bytes to `127.0.0.1:<port>`. Its certificate is signed by the ``TestCA``. A
/// ``Fault`` makes it misbehave the way a broken backend or network does.
package final class TLSProxy: Sendable {
    /// How the proxy misbehaves. A fault for one method (`PUT`, the request that carries a password) forwards that
    /// request to the double, so the double sees what was sent, and spoils only its answer.
    package enum Fault: Sendable {
        /// None: every answer is forwarded as it comes.
        case none
        /// The answer to a request of `method` never comes; the connection stays open.
        case silentAnswer(to: String)
        /// The answer to a request of `method` comes one byte a second.
        case trickledAnswer(to: String)
        /// The connection of a request of `method` is closed in the middle of the answer's first TLS record.
        case cutAnswer(to: String)
        /// Every connection is closed during the TLS handshake, after the first bytes of the client's hello.
        case cutHandshake
        /// The first connection is served; then the proxy stops listening, and every later connection is refused.
        case refusedAfterFirstConnection

        var arguments: [String] {
            switch self {
            case .none: ["none", ""]
            case .silentAnswer(let method): ["silent", method]
            case .trickledAnswer(let method): ["trickle", method]
            case .cutAnswer(let method): ["cut-answer", method]
            case .cutHandshake: ["cut-handshake", ""]
            case .refusedAfterFirstConnection: ["refuse-after-first", ""]
            }
        }
    }

    /// The port it listens on.
    package let port: UInt16
    private let process: Process
    /// The proxy's standard error, in a scratch folder of its own.
    private let errorFile: URL

    /// `https://127.0.0.1:<port>`.
    package var baseURL: String { "https://127.0.0.1:\(port)" }

    /// - Parameters:
    ///   - target: the plain HTTP port to forward to.
    ///   - certificate, key: the server's PEM files.
    ///   - fault: how it misbehaves (``Fault/none``).
    package init(forwardingTo target: UInt16, certificate: String, key: String, fault: Fault = .none) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        // The script in argv (`-c`), not in a file: no file that tests running at once would share.
        process.arguments = ["-c", Self.script, certificate, key, String(target)] + fault.arguments
        let output = Pipe()
        // A file, not a pipe: a pipe no one reads would stall the proxy once full.
        errorFile = SpawnFiles.make().appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        defer { try? errorHandle.close() }
        process.standardOutput = output
        process.standardError = errorHandle
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        guard let port = UInt16(String(decoding: line, as: UTF8.self)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let said = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: errorFile.deletingLastPathComponent())
            throw HarnessError.unexpected(
                what: "the TLS proxy's port (certificate '\(certificate)', key '\(key)')",
                got: said.split(separator: "\n").last.map(String.init) ?? "nothing"
            )
        }
        self.port = port
    }

    deinit {
        // SIGKILL: a child of the test runner inherits its blocked signals, SIGTERM among them.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: errorFile.deletingLastPathComponent())
    }

    private static let script = """
        import os, socket, ssl, sys, threading, time
        certificate, key, target, fault, method = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(32)
        print(server.getsockname()[1], flush=True)

        def close(*ends):
            for end in ends:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        def pump(source, sink):
            try:
                while True:
                    data = source.recv(65536)
                    if not data:
                        break
                    sink.sendall(data)
            except OSError:
                pass
            close(source, sink)

        def answer(upstream, secure, spoiled):
            if not spoiled:
                return pump(upstream, secure)
            try:
                data = upstream.recv(65536)
                if fault == "silent":
                    while data:
                        data = upstream.recv(65536)
                    time.sleep(3600)
                elif fault == "trickle":
                    while data:
                        for index in range(len(data)):
                            secure.sendall(data[index:index + 1])
                            time.sleep(1)
                        data = upstream.recv(65536)
                elif fault == "cut-answer":
                    # The header of an application-data record of 256 bytes, and 16 of them: then the end.
                    # shutdown, not close: it ends the connection under the thread still reading it, and sends
                    # no TLS close_notify.
                    os.write(secure.fileno(), bytes([23, 3, 3, 1, 0]) + bytes(16))
                    secure.shutdown(socket.SHUT_RDWR)
                    return
            except OSError:
                pass
            close(upstream, secure)

        def serve(connection):
            if fault == "cut-handshake":
                connection.recv(16)
                connection.close()
                return
            try:
                secure = context.wrap_socket(connection, server_side=True)
            except (ssl.SSLError, OSError):
                connection.close()
                return
            try:
                first = secure.recv(65536)
            except OSError:
                first = b""
            upstream = socket.create_connection(("127.0.0.1", target))
            upstream.sendall(first)
            spoiled = fault != "none" and first.startswith(method.encode() + b" ")
            threading.Thread(target=pump, args=(secure, upstream), daemon=True).start()
            answer(upstream, secure, spoiled)

        if fault == "refuse-after-first":
            connection, _ = server.accept()
            server.close()
            serve(connection)
            time.sleep(3600)
        for connection, _ in iter(server.accept, None):
            threading.Thread(target=serve, args=(connection,), daemon=True).start()

        """
}
