import Foundation
import Glibc
import LinkdTestSupport
import LinkdWire
import Testing

/// The exec time limit, the argv overwrite of `linkd open`, and what reaches the journal.
@Suite(.ownThread, .serialized) struct DaemonLimitsTests {
    static let canary = "c4nary5e2f88"

    /// The time limit runs until the program has read its link: at the limit SIGTERM (which the program may trap),
    /// then SIGKILL five seconds later.
    @Test func aProgramThatDoesNotReadInTimeGetsSIGTERMThenSIGKILL() throws {
        let world = try DaemonHarness()
        let trapped = world.root.appendingPathComponent("trapped")
        let stubborn = try world.script(
            "stubborn.sh",
            "trap 'echo TERM >> \(trapped.path)' TERM\nwhile :; do sleep 0.1; done\n"
        )
        try world.writeApps(program: stubborn.path, slow: stubborn.path)
        let daemon = try world.startDaemon(
            ["--idle-exit", "30"],
            extra: ["LINKD_EXEC_TIME_LIMIT": "1"],
            timeout: .seconds(5)
        )
        defer { daemon.terminate() }
        let started = ContinuousClock.now
        let output = try world.run(["open", "myapp://note/1"])
        let elapsed = ContinuousClock.now - started
        #expect(output.status == 69, "\(output)")
        #expect(output.stderr.contains("the program did not read the link in time [action_failed]"), "\(output)")
        #expect(elapsed >= .seconds(5), "SIGKILL comes five seconds after the SIGTERM it trapped")
        #expect((try? String(contentsOf: trapped, encoding: .utf8)) == "TERM\n")
        #expect(world.spooledURLs().isEmpty)
    }

    /// Once it has read its link, a program runs as long as it likes: past the limit, and past the daemon's stop.
    @Test func aProgramThatReadItsLinkRunsPastTheLimitAndTheDaemon() throws {
        let world = try DaemonHarness(delay: 3)
        let daemon = try world.startDaemon(
            ["--idle-exit", "30"],
            extra: ["LINKD_EXEC_TIME_LIMIT": "1"],
            timeout: .seconds(5)
        )
        #expect(try world.run(["open", "myapp://note/1"]).status == 0)
        daemon.terminate()
        daemon.waitUntilExit()
        #expect(world.receivedPayloads().isEmpty, "still sleeping")
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 1 })
    }

    @Test func openOverwritesItsLinksInItsOwnArgv() throws {
        let world = try DaemonHarness()
        #expect(try world.run(["open", "myapp://note/warmup"]).status == 0)
        let client = try world.start(["open", "myapp://slow/1#access_token=\(Self.canary).a.b&refresh_token=r"])
        // The program reads the link only after a second, so the client is still waiting for its answer once the
        // daemon has taken the link (its spool file appears); the link must already be gone from what other processes
        // can read of its command line.
        #expect(world.waitForEvent(.accepted, fields: ["LINKD_ROUTE": "myapp://slow/{id}"], within: .seconds(5)))
        #expect(world.spooledURLs().contains { $0.hasPrefix("myapp://slow/") })
        let seen = ((try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(client.pid)/cmdline"))) ?? Data())
            .map { $0 == 0 ? " " : String(UnicodeScalar($0)) }.joined()
        client.waitUntilExit()
        #expect(seen.contains("open"))
        #expect(!seen.contains(Self.canary))
        #expect(!seen.contains("myapp://"))
        #expect(client.terminationStatus == 0)
    }

    @Test(.enabled(if: getuid() == 0 && access("/run/systemd/journal", F_OK) != 0, "needs root and no journald"))
    func logsStructuredEntriesToTheJournalWithoutSecrets() throws {
        // The journal's socket path is the machine's, not a world's: test runs at once take turns at it.
        let turn = open("/run/linkd-tests-journal.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        try #require(turn >= 0 && flock(turn, LOCK_EX) == 0)
        defer { close(turn) }
        let directory = "/run/systemd/journal"
        let path = directory + "/socket"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer {
            unlink(path)
            rmdir(directory)
        }
        let fd = try #require(DatagramListener.bind(at: path))
        defer { close(fd) }
        let world = try DaemonHarness()
        let daemon = try world.startDaemon(
            ["--idle-exit", "10"],
            extra: ["JOURNAL_STREAM": "8:1"],
            timeout: .seconds(5)
        )
        defer { daemon.terminate() }
        #expect(FileManager.default.fileExists(atPath: world.socketPath))
        #expect(try world.run(["open", "myapp://note/7#code=\(Self.canary)"]).status == 0)
        // The program's exit is the link's last entry: read entries as they come until that one (each read waits 3 s).
        var limit = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var entries: [String] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !entries.contains(where: { $0.contains(") exited with status ") }) {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            entries.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
        let accepted = entries.first { $0.contains("MESSAGE=link ") && $0.contains(" accepted for com.example.Notes") }
        let entry = try #require(accepted, "\(entries)")
        #expect(entry.contains("\nPRIORITY=6\n"))
        #expect(entry.contains("\nSYSLOG_IDENTIFIER=linkd\n"))
        #expect(entry.contains("\nLINKD_APP=com.example.Notes\n"))
        #expect(entry.contains("\nLINKD_ROUTE=myapp://note/{id}\n"))
        #expect(entry.contains("\nLINKD_LINK_ID="))
        #expect(!entries.joined().contains(Self.canary))
    }
}
