import Foundation
import Glibc
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 for test doubles: one thread per connection, keep-alive, `Content-Length`
/// bodies; every request is recorded before `handler` answers it.
package final class TestHTTPServer: Sendable {
    package typealias Handler = @Sendable (ReceivedRequest) -> DoubleResponse

    /// The port it listens on.
    package let port: UInt16
    private let listener: Int32
    private let handler: Handler
    private let recorded = Mutex<[ReceivedRequest]>([])
    private let stopped = Atomic<Bool>(false)

    /// `http://127.0.0.1:<port>`.
    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far, in order.
    package var requests: [ReceivedRequest] { recorded.withLock { $0 } }

    package init(handler: @escaping Handler) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        let server = self
        Thread.detachNewThread { server.acceptLoop() }
    }

    /// Stops accepting; connections in progress finish.
    package func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var reader = RequestReader(fd: connection)
        while let request = reader.next() {
            recorded.withLock { $0.append(request) }
            let answer = handler(request)
            let full = answer.serialized
            let response = answer.cutShortAfter.map { full.prefix(full.count - answer.body.count + $0) } ?? full
            let sent = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent == response.count, answer.cutShortAfter == nil,
                request.header("Connection")?.lowercased() != "close"
            else { return }
        }
    }
}
