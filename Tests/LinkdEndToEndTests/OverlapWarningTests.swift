import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// Two apps that claim the same links: the first in file-name order keeps them, and the daemon says so in its log,
/// naming both apps and the pattern, when it reads the configuration and whenever it reads it again.
@Suite(.ownThread) struct OverlapWarningTests {
    /// An app whose `pattern` overlaps a link of com.example.Notes (the harness's `notes.json`).
    private func write(_ name: String, app: String, pattern: String, in world: DaemonHarness) throws {
        let text = #"{"app": "\#(app)", "links": [{"match": "\#(pattern)", "action": "forward"}]}"#
        try Data(text.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/\(name)"))
    }

    /// The log's lines that name both apps and the losing pattern.
    private func warnings(in log: String, winner: String, loser: String, pattern: String) -> [Substring] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter {
            $0.contains("'\(winner)'") && $0.contains("'\(loser)'") && $0.contains("'\(pattern)'")
        }
    }

    @Test func theDaemonWarnsOfOverlapsWhenItReadsAndRereadsTheConfiguration() throws {
        let world = try DaemonHarness()
        try write("other.json", app: "com.example.Other", pattern: "myapp://note/{n}", in: world)
        let log = world.root.path + "/daemon.log"
        let daemon = try world.startDaemon(["--idle-exit", "30"], stderrPath: log)
        defer { daemon.terminate() }
        let first = warnings(
            in: log,
            winner: "com.example.Notes",
            loser: "com.example.Other",
            pattern: "myapp://note/{n}"
        )
        #expect(first.count == 1, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        // The first in file-name order still wins.
        let output = try world.run(["open", "myapp://note/1"])
        #expect(output.stdout == "delivered: myapp://note/{id} → com.example.Notes\n", "\(output)")
        try write("third.json", app: "com.example.Third", pattern: "myapp://inbox/{x}", in: world)
        // Its log is read again at each change until the warning is there.
        #expect(
            world.waitUntil(.seconds(5)) {
                !warnings(
                    in: log,
                    winner: "com.example.Notes",
                    loser: "com.example.Third",
                    pattern: "myapp://inbox/{x}"
                )
                .isEmpty
            },
            "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")"
        )
    }
}
