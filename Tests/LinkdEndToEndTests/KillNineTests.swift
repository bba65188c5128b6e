import Foundation
import Glibc
import LinkdSystem
import LinkdTestSupport
import Testing

/// The daemon killed with SIGKILL at random moments while clients stream links to a program: no link a client was
/// told was delivered is lost, and no program is started for a link whose delivery the spool had recorded.
@Suite(.ownThread, .serialized, .disabled(if: Sanitizer.isActive, Sanitizer.reason)) struct KillNineTests {
    /// How many times the daemon is killed: `LINKD_KILL9_COUNT` in the test's environment, else 200.
    static let kills = ProcessInfo.processInfo.environment["LINKD_KILL9_COUNT"].flatMap(Int.init) ?? 200

    /// What the client threads share with the test.
    private final class Stream: Sendable {
        let stopped = Lock(false)
        let outcomes = Lock<[(url: String, status: Int32)]>([])
        /// What the clients that failed said, each message once (the link's number left out).
        let failures = Lock<Set<String>>([])
    }

    /// One run of the program: whether its link's entry was in the spool when it started, and what it read.
    private struct Run {
        let wasSpooled: Bool
        let id: String
        let url: String
    }

    /// Async, so that its minute of waiting sleeps instead of holding one of the cooperative pool's threads.
    @Test func killingTheDaemonAtRandomMomentsLosesNoAcknowledgedLinkAndRepeatsNoDeliveredOne() async throws {
        let world = try DaemonHarness()
        let runs = world.root.appendingPathComponent("runs.txt")
        // Before reading, the program looks for its link's entry: the daemon removes it only once the link is
        // delivered, so a program started without it is a run after delivery. The line is one O_APPEND write.
        let program = try world.script(
            "record-id.sh",
            """
            state=unspooled
            [ -e "$XDG_RUNTIME_DIR/linkd/spool/$LINKD_LINK_ID.json" ] && state=spooled
            payload=$(cat)
            printf '%s %s\\n' "$state" "$payload" >> \(runs.path)

            """
        )
        try world.writeApps(program: program.path, slow: program.path)
        let stream = Stream()
        let clients = 3
        let finished = DispatchGroup()
        for client in 0..<clients {
            finished.enter()
            Thread {
                defer { finished.leave() }
                var number = 0
                while !stream.stopped.withLock({ $0 }) {
                    let url = "myapp://note/\(client)-\(number)"
                    number += 1
                    let output = try? world.run(["open", url])
                    stream.outcomes.withLock { $0.append((url, output?.status ?? -1)) }
                    if let output, output.status != 0 {
                        _ = stream.failures.withLock { $0.insert("\(output.status) \(output.stderr)") }
                    }
                }
            }.start()
        }
        let clock = ContinuousClock()
        let started = clock.now
        var killed = 0
        var generator = SystemRandomNumberGenerator()
        while killed < Self.kills {
            // A client starts the next daemon; its socket appearing wakes the wait.
            guard await world.waitUntil(within: .seconds(10), { !world.daemonPIDs().isEmpty }) else { break }
            // The random moment of its life it dies at.
            try await Task.sleep(for: .microseconds(Int.random(in: 0...400_000, using: &generator)))
            if let pid = world.daemonPIDs().first, kill(pid, SIGKILL) == 0 { killed += 1 }
        }
        stream.stopped.withLock { $0 = true }
        // The clients' threads finish their last link.
        await withCheckedContinuation { continuation in finished.notify(queue: .global()) { continuation.resume() } }
        let streamed = clock.now - started

        // The last daemon takes up what the killed ones left; the spool and the programs' file show it.
        #expect(try world.run(["open", "myapp://note/last"]).status == 0)
        #expect(await world.waitUntil(within: .seconds(30)) { world.spoolCount() == 0 }, "\(world.spooledURLs())")
        let outcomes = stream.outcomes.withLock { $0 } + [("myapp://note/last", 0)]
        let acknowledged = Set(outcomes.filter { $0.status == 0 }.map(\.url))
        let read = { Self.runs(in: runs) }
        #expect(await world.waitUntil(within: .seconds(30)) { acknowledged.isSubset(of: read().map(\.url)) })
        let all = read()
        let lost = acknowledged.subtracting(all.map(\.url))
        let afterDelivery = all.filter { !$0.wasSpooled }
        let repeatedIDs = Dictionary(grouping: all, by: \.id).values.filter { $0.count > 1 }.count
        let runsPerURL = Dictionary(grouping: all, by: \.url).values.filter { $0.count > 1 }.count
        #expect(killed == Self.kills)
        #expect(lost.isEmpty, "acknowledged links never run: \(lost.sorted())")
        #expect(afterDelivery.isEmpty, "programs started for delivered links: \(afterDelivery.map(\.id))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: world.spoolPath).isEmpty, "no temporary file")
        let statuses = Dictionary(grouping: outcomes, by: \.status).mapValues(\.count)
        print(
            "kill -9: \(killed) kills in \(streamed); \(outcomes.count) links sent, \(acknowledged.count) acknowledged, "
                + "exit statuses \(statuses.sorted { $0.key < $1.key }); \(all.count) program runs, "
                + "\(lost.count) acknowledged links lost, \(afterDelivery.count) runs after delivery, "
                + "\(repeatedIDs) ids run again before their delivery was recorded, \(runsPerURL) links run twice; "
                + "failures: \(stream.failures.withLock { $0 })"
        )
    }

    private static func runs(in file: URL) -> [Run] {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let space = line.firstIndex(of: " "),
                let object = (try? JSONSerialization.jsonObject(with: Data(line[space...].utf8))) as? [String: Any],
                let id = object["id"] as? String, let url = object["url"] as? String
            else { return nil }
            return Run(wasSpooled: line[..<space] == "spooled", id: id, url: url)
        }
    }
}
