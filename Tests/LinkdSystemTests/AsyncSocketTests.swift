import Glibc
import LinkdSystem
import Testing

/// A connected socket pair read and written through the reactor: bytes as written, lines cut at their limit, a read
/// that ends at its deadline, the peer's end seen, and a duplicate that writes while the first reads.
@Suite struct AsyncSocketTests {
    /// Two connected stream sockets, each an ``AsyncSocket``; the caller closes both.
    private func pair() throws -> (AsyncSocket, AsyncSocket) {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
        return (try AsyncSocket(FileDescriptor(rawValue: fds[0])), try AsyncSocket(FileDescriptor(rawValue: fds[1])))
    }

    @Test func bytesWrittenAtOneEndAreReadAtTheOther() async throws {
        let (left, right) = try pair()
        defer {
            left.close()
            right.close()
        }
        try await left.write(Array("hello".utf8), deadline: .now + .seconds(5))
        var buffer: [UInt8] = []
        let count = try await right.read(into: &buffer, deadline: .now + .seconds(5))
        #expect(Array(buffer[0..<count]) == Array("hello".utf8))
    }

    @Test func aReadEndsAtItsDeadlineWhenNothingComes() async throws {
        let (left, right) = try pair()
        defer {
            left.close()
            right.close()
        }
        var buffer: [UInt8] = []
        await #expect(throws: ReactorError.timedOut) {
            _ = try await right.read(into: &buffer, deadline: .now + .milliseconds(50))
        }
    }

    @Test func theLineReaderCutsALongLineAndReadsOnAfterIt() async throws {
        let (left, right) = try pair()
        defer { right.close() }
        var reader = LineReader(right, limit: 8)
        try await left.write(Array("0123456789abcdef\nshort\nlast".utf8), deadline: .now + .seconds(5))
        left.close()
        #expect(try await reader.nextLine(deadline: .now + .seconds(5)) == .init(Array("01234567".utf8), isCut: true))
        #expect(try await reader.nextLine(deadline: .now + .seconds(5)) == .init(Array("short".utf8)))
        #expect(try await reader.nextLine(deadline: .now + .seconds(5)) == .init(Array("last".utf8)))
        #expect(try await reader.nextLine(deadline: .now + .seconds(5)) == nil)
    }

    @Test func thePeerGoingAwayIsSeen() throws {
        let (left, right) = try pair()
        defer { right.close() }
        #expect(right.isPeerConnected)
        left.close()
        // A test beside this one may fork in this moment: its child holds a copy of the other end until it runs its
        // program. The peer is gone when the last copy is closed, and poll(2) sees it.
        var entry = pollfd(fd: right.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 30_000) == 1)
        #expect(!right.isPeerConnected)
    }

    @Test func aDuplicateWritesWhileTheFirstDescriptorWaitsToRead() async throws {
        let (left, right) = try pair()
        defer {
            left.close()
            right.close()
        }
        let writer = try right.duplicate()
        defer { writer.close() }
        #expect(writer.descriptor != right.descriptor)
        async let answer: [UInt8] = {
            var buffer: [UInt8] = []
            let count = try await right.read(into: &buffer, deadline: .now + .seconds(5))
            return Array(buffer[0..<count])
        }()
        try await writer.write(Array("ping".utf8), deadline: .now + .seconds(5))
        var buffer: [UInt8] = []
        let count = try await left.read(into: &buffer, deadline: .now + .seconds(5))
        #expect(Array(buffer[0..<count]) == Array("ping".utf8))
        try await left.write(Array("pong".utf8), deadline: .now + .seconds(5))
        #expect(try await answer == Array("pong".utf8))
    }
}
