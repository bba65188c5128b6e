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

    /// Without libsystemd the notifier sends the datagram itself: the same bytes libsystemd sends. (Where libsystemd
    /// cannot be loaded, the notifier would compare its own datagram with itself: left out.)
    @Test(.enabled(if: dlopen("libsystemd.so.0", RTLD_LAZY) != nil, "needs libsystemd to compare with"))
    func theDatagramSentWithoutLibsystemdIsTheOneLibsystemdSends() throws {
        let fromLibsystemd = try received { try Notifier().notifyReady(status: "waiting for links") }
        var result: Int32 = 0
        let byHand = try received {
            let path = try #require(ProcessInfo.processInfo.environment["NOTIFY_SOCKET"])
            result = Notifier.sendDatagram("READY=1\nSTATUS=waiting for links", to: path)
        }
        #expect(result == 1)
        #expect(fromLibsystemd == ["READY=1\nSTATUS=waiting for links"])
        #expect(byHand == fromLibsystemd)
    }

    /// An abstract socket (`@name`, as `systemd --user` may give) is reached by its name alone; a relative path and a
    /// path too long for a socket address are refused, as sd_notify refuses them (in its words: EINVAL for both).
    @Test func theDatagramReachesAnAbstractSocketAndRefusesOtherAddresses() throws {
        let name = "linkd-notify-test-\(getpid())"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in name.utf8.enumerated() { buffer[index + 1] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.utf8.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        try #require(bound == 0)
        #expect(Notifier.sendDatagram("READY=1", to: "@" + name) == 1)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(count == 7 && String(decoding: buffer[0..<max(0, count)], as: UTF8.self) == "READY=1")
        #expect(Notifier.sendDatagram("READY=1", to: "relative/path") == -EAFNOSUPPORT)
        #expect(Notifier.sendDatagram("READY=1", to: "/" + String(repeating: "x", count: 200)) == -ENAMETOOLONG)
    }
}

@Suite(.ownThread) struct PeerCredentialsTests {
    @Test func readsTheOtherEndOfASocketPair() throws {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
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
        #expect(throws: SystemError.peerCredentialsFailed(errno: Errno(rawValue: ENOTSOCK))) {
            try PeerCredentials.of(FileDescriptor(rawValue: file))
        }
    }
}
