import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// The exec time limit, the argv overwrite of `linkd open`, and what reaches the journal.
@Suite(.serialized) struct DaemonLimitsTests {
    static let canary = "c4nary5e2f88"

    @Test func killsAProgramPastItsTimeLimitAndClearsItsLink() throws {
        let world = try DaemonHarness(delay: 30)
        // 3 s: long enough for the program to start and read its link on a loaded machine (with 1 s, CI's parallel
        // suites sometimes got it killed before it had read anything), far below its 30 s sleep.
        let daemon = try world.startDaemon(
            ["--idle-exit", "15"],
            extra: ["LINKD_EXEC_TIME_LIMIT": "3"],
            timeout: .seconds(5)
        )
        defer { daemon.terminate() }
        #expect(FileManager.default.fileExists(atPath: world.socketPath))
        let output = try world.run(["open", "myapp://note/1"])
        #expect(output.status == 0, "\(output)")
        #expect(
            world.waitUntil(.seconds(10)) {
                (try? FileManager.default.contentsOfDirectory(atPath: world.spoolPath))?.isEmpty == true
            }
        )
        #expect(world.receivedPayloads().isEmpty)
    }

    @Test func openOverwritesItsLinksInItsOwnArgv() throws {
        let world = try DaemonHarness()
        #expect(try world.run(["open", "myapp://note/warmup"]).status == 0)
        let client = try world.start(["open", "myapp://slow/1#access_token=\(Self.canary).a.b&refresh_token=r"])
        // The program reads the link only after a second, so the client is still waiting for its answer once the
        // daemon has taken the link (a spool file, so a poll); the link must already be gone from what other processes
        // can read of its command line.
        #expect(world.waitUntil(.seconds(5)) { world.spooledURLs().contains { $0.hasPrefix("myapp://slow/") } })
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
