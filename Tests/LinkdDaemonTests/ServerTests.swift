import Foundation
import Glibc
import LinkdFormats
import LinkdTestSupport
import LinkdWire
import Testing

@testable import LinkdDaemon
@testable import LinkdSystem

/// The socket server on a real Unix socket, with a service over one app: a line that is no request is answered and
/// the next one served; a line over the limit is refused and the connection closed; the stop ends a connection that
/// waits for its next request; a subscriber with a wrong key is refused; a client over the limit gets one line.
@Suite(.ownThread) struct ServerTests {
    static let apps = #"{"app": "com.example.A", "links": [{"match": "myapp://note/{id}", "action": "forward"}]}"#

    /// A connection to the server, reading its answers line by line.
    struct Client {
        let socket: AsyncSocket
        var reader: LineReader

        init(_ path: String) throws {
            socket = try AsyncSocket(try UnixSocket.connect(path: path))
            reader = LineReader(socket, limit: 1 << 20)
        }

        func send(_ bytes: [UInt8]) async throws {
            try await socket.write(bytes, deadline: .now + .seconds(5))
        }

        /// The next answer, `nil` once the server closed the connection.
        mutating func answer() async throws -> WireProtocol.Response? {
            guard let line = try await reader.nextLine(deadline: .now + .seconds(10)) else { return nil }
            return WireProtocol.Response(line: line.bytes)
        }

        /// Sends `request` and reads its answer.
        mutating func ask(_ request: WireProtocol.Request) async throws -> WireProtocol.Response? {
            try await send(Array((request.line + "\n").utf8))
            return try await answer()
        }
    }

    /// A listening socket at `path`, as systemd would pass one. (Not ``Listener/bind(path:lockPath:)``, whose
    /// moment of umask 0177 is the whole process's: the tests beside this one would make their files with it.)
    static func listener(at path: String) throws -> Listener {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        try UnixSocket.withAddress(path) { address, length throws(SystemError) in
            guard bind(fd, address, length) == 0, listen(fd, 16) == 0 else {
                throw .systemCall(operation: "listen on '\(path)'", errno: .current)
            }
        }
        return try Listener.adopt(ListenedSocket(descriptor: FileDescriptor(rawValue: fd), name: "test"))
    }

    /// Runs `body` with the socket's path while a server of `clients` clients at most serves it.
    static func serving(
        clients: Int = 8,
        _ body: (String, LinkServiceTests.World) async throws -> Void
    ) async throws {
        let world = try LinkServiceTests.World(apps: apps)
        defer { try? FileManager.default.removeItem(at: world.root) }
        let path = world.root.appendingPathComponent("socket").path
        let server = Server(
            listener: try Self.listener(at: path),
            service: world.service,
            activity: world.service.activity,
            shutdown: world.shutdown,
            log: DaemonLog.make(environment: [:]),
            clients: ClientCount(limit: clients)
        )
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await server.run() }
            try await body(path, world)
            world.shutdown.stop()
            group.cancelAll()
        }
    }

    @Test func aLineThatIsNoRequestIsAnsweredAndTheNextIsServed() async throws {
        try await Self.serving { path, world in
            var client = try Client(path)
            try await client.send(Array("{\"op\": \"fly\"}\n".utf8))
            let refused = try #require(try await client.answer())
            #expect(refused.failure?.kind == .request)
            let accepted = try await client.ask(.open(url: "myapp://note/1", interactive: false))
            #expect(accepted == .accepted(route: "myapp://note/{id}", app: "com.example.A", state: .queued))
            #expect(world.spooled.count == 1)
        }
    }

    @Test func aLineOverTheLimitIsRefusedAndTheConnectionClosed() async throws {
        try await Self.serving { path, world in
            var client = try Client(path)
            try await client.send([UInt8](repeating: UInt8(ascii: "a"), count: WireProtocol.maximumLine + 1) + [0x0A])
            let refused = try #require(try await client.answer())
            #expect(refused.failure?.reason == .tooLong && refused.failure?.kind == .request)
            #expect(try await client.answer() == nil, "closed")
            #expect(world.spooled.isEmpty)
        }
    }

    @Test func theStopEndsAConnectionThatWaitsForItsNextRequest() async throws {
        try await Self.serving { path, world in
            var client = try Client(path)
            #expect(try await client.ask(.open(url: "myapp://note/1", interactive: false))?.failure == nil)
            world.shutdown.stop()
            #expect(try await client.answer() == nil, "closed: no request is read after the stop")
            #expect(world.spooled.count == 1, "the link read before the stop")
        }
    }

    @Test func aSubscriberWithAWrongKeyIsRefused() async throws {
        try await Self.serving { path, _ in
            var client = try Client(path)
            let answer = try await client.ask(.subscribe(app: "com.example.A", key: Secret("not-the-key")))
            #expect(answer == .failed(.wrongSubscriberKey(app: "com.example.A")))
        }
    }

    @Test func aClientOverTheLimitGetsOneLineAndIsClosed() async throws {
        try await Self.serving(clients: 1) { path, _ in
            var first = try Client(path)
            #expect(try await first.ask(.open(url: "myapp://note/1", interactive: false))?.failure == nil)
            var second = try Client(path)
            #expect(try await second.answer() == .failed(.tooManyClients(limit: 1)))
            #expect(try await second.answer() == nil, "closed")
        }
    }
}
