import Foundation
import Glibc
import LinkdSystem
import LinkdTestSupport
import Testing

@Suite(.ownThread) struct SubprocessTests {
    private let path = ["PATH": "/usr/bin:/bin"]

    @Test func collectsOutputAndTheExitStatus() throws {
        let (status, output) = try Subprocess(["sh", "-c", "printf 'hello'; exit 3"], environment: path).run()
        #expect(status == 3)
        #expect(output == Array("hello".utf8))
    }

    @Test func reportsAProgramThatCannotRunAs127() throws {
        #expect(try Subprocess(["linkd-no-such-program"], environment: path).run().status == 127)
    }

    @Test func reportsASignalDeathAs128PlusTheSignalThroughItsExitDescriptor() async throws {
        let running = try Subprocess(["sleep", "30"], environment: path).spawn()
        defer { running.closeDescriptors() }
        running.send(SIGKILL)
        #expect(try await running.exitStatus(deadline: .now + .seconds(5)) == 128 + SIGKILL)
    }

    @Test func aWaitForExitEndsAtItsDeadlineAndLeavesTheChildRunning() async throws {
        let running = try Subprocess(["sleep", "30"], environment: path).spawn()
        defer {
            running.send(SIGKILL)
            _ = running.waitForExit()
            running.closeDescriptors()
        }
        await #expect(throws: ReactorError.timedOut) {
            try await running.exitStatus(deadline: .now + .milliseconds(100))
        }
        #expect(running.exitStatusIfExited() == nil)
    }

    /// The child sees only its three standard streams, no blocked signal and no ignored one, whatever this process
    /// holds open and ignores.
    @Test func theChildInheritsNoDescriptorAndDefaultSignals() throws {
        let stray = open("/dev/null", O_RDONLY)  // not close-on-exec: a plain spawn would pass it on
        defer { close(stray) }
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let script = "ls /proc/self/fd | tr '\\n' ' '; grep -E '^Sig(Ign|Blk)' /proc/self/status | tr '\\n' ' '"
        let (status, output) = try Subprocess(["sh", "-c", script], environment: path).run()
        #expect(status == 0)
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.hasPrefix("0 1 2 3 "), "\(text)")  // 3 is ls's own listing of /proc/self/fd
        #expect(!text.contains(" 4 "), "\(text)")
        #expect(text.contains("SigBlk:\t0000000000000000"), "\(text)")
        // SigIgn in hex, bit n-1 for signal n; glibc keeps its own two real-time signals out of reach.
        let ignored = text.split(separator: "SigIgn:\t").last.flatMap { UInt64($0.prefix(16), radix: 16) } ?? ~0
        #expect(ignored & (1 << (SIGPIPE - 1)) == 0, "\(text)")
        #expect(ignored & (1 << (SIGTERM - 1)) == 0, "\(text)")
    }

    @Test func runsInTheFolderItIsGiven() throws {
        let (_, output) = try Subprocess(["pwd"], environment: path, directory: "/").run()
        #expect(output == Array("/\n".utf8))
    }

    @Test func deliversOnceTheProgramHasReadItAll() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sub-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let received = folder.appendingPathComponent("received").path
        // Larger than the pipe's one page: the payload goes in several writes, each after the program emptied it.
        let payload = Array(String(repeating: "x", count: 20_000).utf8) + [10]
        let script = "cat > '\(received)'; sleep 30"
        let delivered = try await Subprocess(["sh", "-c", script], environment: path)
            .deliver(payload, deadline: .now + .seconds(60))
        let running = try #require(delivered as? Subprocess.Running, "a spawned program is the daemon's child")
        defer {
            running.send(SIGKILL)
            _ = running.waitForExit()
            running.closeDescriptors()
        }
        #expect(running.exitStatusIfExited() == nil)
        // Delivered means read from the pipe; cat writes its last block to the file a moment later (read again at each
        // change of its folder).
        let written = { FileManager.default.contents(atPath: received).map(Array.init) }
        let events = FileEvents([URL(fileURLWithPath: received).deletingLastPathComponent().path])
        #expect(await events.wait(until: .now + .seconds(10)) { written() == payload })
    }

    @Test func aProgramThatExitsWithoutReadingIsNotDelivered() async throws {
        await #expect(throws: Subprocess.DeliveryFailure.exitedBeforeReading(status: 4)) {
            _ = try await Subprocess(["sh", "-c", "exit 4"], environment: path)
                .deliver(Array("{}\n".utf8), deadline: .now + .seconds(10))
        }
    }

    /// The bound is loose on purpose: other suites' blocking tests can hold the test process's threads for seconds,
    /// but a program that never reads would otherwise hold the delivery for all of its minute.
    @Test func aProgramThatNeverReadsStallsAndIsKilled() async throws {
        let started = ContinuousClock.now
        await #expect(throws: Subprocess.DeliveryFailure.stalled) {
            _ = try await Subprocess(["sleep", "60"], environment: path)
                .deliver(Array("{}\n".utf8), deadline: .now + .milliseconds(300))
        }
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func aProgramThatReadsPartOfItIsNotDelivered() async throws {
        let payload = Array("0123456789\n".utf8)
        await #expect(throws: Subprocess.DeliveryFailure.exitedBeforeReading(status: 0)) {
            _ = try await Subprocess(["head", "-c", "4"], environment: path)
                .deliver(payload, deadline: .now + .seconds(10))
        }
    }
}

/// A program that is not there leaves the process that tried to become it as it was: its standard streams, its
/// descriptors and its session.
@Suite struct ReplaceProcessTests {
    @Test func aMissingProgramIsAnErrorAndTheProcessStaysAsItWas() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        let stdoutBefore = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/1")
        let sessionBefore = getsid(0)
        let error = Subprocess.replaceProcess(with: ["/nonexistent/browser", "https://a.example/"], environment: [:])
        #expect(error == .spawnFailed(errno: .noEntry))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/1") == stdoutBefore)
        #expect(fcntl(fds[1], F_GETFD) & FD_CLOEXEC == 0, "a descriptor of the process keeps its flags")
        #expect(write(fds[1], "x", 1) == 1)
        #expect(getsid(0) == sessionBefore)
        let unfound = Subprocess.replaceProcess(with: ["no-such-browser-here"], environment: ["PATH": "/bin"])
        #expect(unfound == .spawnFailed(errno: .noEntry))
    }
}
