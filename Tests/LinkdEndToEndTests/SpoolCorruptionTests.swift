import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// A spool holding files that are no good entries, beside good ones: the daemon starts, skips and removes each bad
/// file with a line in its log that quotes nothing of it, and replays the good entries.
@Suite(.ownThread, .serialized) struct SpoolCorruptionTests {
    static let canary = "c4nary61d0fa"

    @Test func corruptAndTruncatedEntriesAreSkippedLoggedAndTheOthersReplayed() throws {
        let world = try DaemonHarness()
        let spool = world.spoolPath
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        let good = (1...3).map { SpoolFiles.id(0xA0 + $0) }
        for (number, id) in good.enumerated() {
            SpoolFiles.write(
                SpoolFiles.entry(id: id, url: "myapp://note/good-\(number)", kind: "exec"),
                to: "\(spool)/\(id).json"
            )
        }
        let secretURL = "myapp://note/1#access_token=\(Self.canary)"
        let whole = SpoolFiles.entry(id: "half", url: secretURL, kind: "exec")
        let huge = SpoolFiles.entry(id: "huge", url: secretURL + String(repeating: "A", count: 3 << 20), kind: "exec")
        let bad: [(String, String)] = [
            ("empty", ""),
            ("half", String(whole.prefix(whole.count / 2 + 20))),
            ("types", #"{"id": "types", "url": ["\#(secretURL)"], "attempts": "1", "accepted": true, "kind": 5}"#),
            ("kind", SpoolFiles.entry(id: "kind", url: secretURL, kind: "teleport")),
            ("forged", SpoolFiles.entry(id: "../../forged", url: "myapp://note/forged", kind: "exec")),
            ("huge", huge),
        ]
        for (name, text) in bad { SpoolFiles.write(text, to: "\(spool)/\(name).json") }
        var garbage = SystemRandomNumberGenerator()
        let bytes = (0..<4_096).map { _ in UInt8.random(in: 0...255, using: &garbage) } + Array(Self.canary.utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: "\(spool)/garbage.json"))
        #expect(mkfifo("\(spool)/fifo.json", 0o600) == 0)  // an open that waited for a writer would hang the daemon
        try FileManager.default.createDirectory(atPath: "\(spool)/folder.json", withIntermediateDirectories: false)
        let log = world.root.appendingPathComponent("daemon.log")
        let daemon = try world.startDaemon(["--idle-exit", "30"], stderrPath: log.path, timeout: .seconds(10))
        defer { daemon.terminate() }

        // The programs append what they read: the file is read again at each change.
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 3 })
        #expect(world.waitUntil(.seconds(5)) { world.spoolCount() == 1 })  // the folder alone cannot be removed
        let replayed = world.receivedPayloads().compactMap { $0["url"] as? String }.sorted()
        #expect(replayed == ["myapp://note/good-0", "myapp://note/good-1", "myapp://note/good-2"])
        #expect(Set(world.receivedPayloads().compactMap { $0["id"] as? String }) == Set(good))
        #expect(!FileManager.default.fileExists(atPath: world.runtime.path + "/forged.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool) == ["folder.json"])
        #expect(try world.run(["open", "myapp://note/after"]).status == 0)
        let text = try String(contentsOf: log, encoding: .utf8)
        let skipped = text.split(separator: "\n").filter { $0.contains(" is unreadable and was ") }
        #expect(skipped.count == bad.count + 3, "\(text)")
        #expect(!text.contains(Self.canary))
        #expect(!text.contains("AAAA"))
    }
}
