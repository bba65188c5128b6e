import Foundation
import Glibc
import LinkdSystem
import LinkdTestSupport
import Testing

@Suite(.ownThread, .serialized) struct NotifierTests {
    /// Binds a datagram socket, points `NOTIFY_SOCKET` at it, and returns what `body` sent.
    private func received(_ body: () throws -> Void) throws -> [String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)").path
        let fd = try #require(DatagramListener.bind(at: path))
        defer {
            close(fd)
            unlink(path)
        }
        setenv("NOTIFY_SOCKET", path, 1)
        defer { unsetenv("NOTIFY_SOCKET") }
        try body()
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { break }
            messages.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
        return messages
    }

    @Test func sendsReadyStatusAndStopping() throws {
        let messages = try received {
            let notifier = Notifier()
            try notifier.notifyReady(status: "waiting for links")
            try notifier.notifyStatus("handled 1 link")
            try notifier.notifyStopping()
            try notifier.notifyWatchdog()
        }
        #expect(messages == ["READY=1\nSTATUS=waiting for links", "STATUS=handled 1 link", "STOPPING=1", "WATCHDOG=1"])
    }

    @Test func keepsControlCharactersOutOfTheStatus() throws {
        let messages = try received { try Notifier().notifyStatus("a\u{1}b\nREADY=1") }
        #expect(messages == ["STATUS=ab\nREADY=1"])
    }

    @Test func isANoOpWithoutANotifySocket() throws {
        unsetenv("NOTIFY_SOCKET")
        try Notifier().notifyReady()
    }
}

@Suite(.ownThread) struct PeerCredentialsTests {
    @Test func readsTheOtherEndOfASocketPair() throws {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let credentials = try PeerCredentials.of(FileDescriptor(rawValue: fds[0]))
        #expect(credentials.uid == getuid())
        #expect(credentials.gid == getgid())
        #expect(credentials.pid == getpid())
    }

    @Test func failsOnANonSocket() {
        let file = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(file) }
        #expect(throws: SystemdError.peerCredentialsFailed(errno: Errno(rawValue: ENOTSOCK))) {
            try PeerCredentials.of(FileDescriptor(rawValue: file))
        }
    }
}
