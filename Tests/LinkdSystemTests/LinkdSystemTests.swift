import Foundation
import Glibc
import LinkdSystem
import LinkdTestSupport
import Testing

@Suite(.serialized) struct NotifierTests {
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

@Suite struct PeerCredentialsTests {
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
        #expect(throws: SystemdError.peerCredentialsFailed(errno: ENOTSOCK)) {
            try PeerCredentials.of(FileDescriptor(rawValue: file))
        }
    }
}

@Suite struct ChildProcessTests {
    private func waitForExit(_ child: ChildProcess) async throws -> Int32 {
        for _ in 0..<500 {
            if let status = child.exitStatusIfExited() { return status }
            try await Task.sleep(for: .milliseconds(10))
        }
        child.kill()
        Issue.record("child did not exit")
        return -1
    }

    @Test func passesStandardInputAndSeesItRead() async throws {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)").path
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { unlink(outputPath) }
        let child = try ChildProcess.spawn(
            ["cat"],
            environment: ["PATH": "/usr/bin:/bin"],
            output: FileDescriptor(rawValue: output)
        )
        close(output)
        let payload = Array("{\"id\": \"1\"}\n".utf8)
        #expect(write(child.input.rawValue, payload, payload.count) == payload.count)
        child.input.close()
        #expect(try await waitForExit(child) == 0)
        #expect(child.pendingInputBytes == 0)
        child.inputProbe.close()
        #expect(FileManager.default.contents(atPath: outputPath) == Data(payload))
    }

    @Test func reportsAProgramThatCannotRunAs127() async throws {
        let null = FileDescriptor(rawValue: open("/dev/null", O_WRONLY | O_CLOEXEC))
        let child = try ChildProcess.spawn(["linkd-no-such-program"], environment: ["PATH": "/usr/bin"], output: null)
        null.close()
        child.input.close()
        #expect(try await waitForExit(child) == 127)
        child.inputProbe.close()
    }

    @Test func reportsASignalDeathAs128PlusTheSignal() async throws {
        let null = FileDescriptor(rawValue: open("/dev/null", O_WRONLY | O_CLOEXEC))
        let child = try ChildProcess.spawn(["sleep", "30"], environment: ["PATH": "/usr/bin:/bin"], output: null)
        null.close()
        child.kill()
        #expect(try await waitForExit(child) == 128 + SIGKILL)
        child.input.close()
        child.inputProbe.close()
    }
}
