import Foundation
import LinkdSystem
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 for test doubles: one thread per connection, keep-alive, `Content-Length`
/// bodies; every request is recorded before `handler` answers it.
package final class TestHTTPServer: Sendable {
    package typealias Handler = @Sendable (ReceivedRequest) -> DoubleResponse

    /// The port it listens on.
    package let port: UInt16
    private let listener: LoopbackListener
    private let handler: Handler
    private let recorded = Lock<[ReceivedRequest]>([])
    private let stopped = Atomic<Bool>(false)

    /// `http://127.0.0.1:<port>`.
    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far, in order.
    package var requests: [ReceivedRequest] { recorded.withLock { $0 } }

    package init(handler: @escaping Handler) throws {
        self.handler = handler
        listener = try LoopbackListener()
        port = listener.port
        let server = self
        Thread.detachNewThread { server.acceptLoop() }
    }

    /// Stops accepting; connections in progress finish.
    package func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        listener.close()
    }

    deinit { stop() }

    private func acceptLoop() {
        while !stopped.load(ordering: .sequentiallyConsistent), let connection = listener.nextConnection() {
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    private func serve(_ connection: FileDescriptor) {
        defer { connection.close() }
        var reader = RequestReader(connection)
        while let request = reader.next() {
            recorded.withLock { $0.append(request) }
            let answer = handler(request)
            let full = answer.serialized
            let response = answer.cutShortAfter.map { full.prefix(full.count - answer.body.count + $0) } ?? full
            guard connection.sendAll(response), answer.cutShortAfter == nil,
                request.header("Connection")?.lowercased() != "close"
            else { return }
        }
    }
}
