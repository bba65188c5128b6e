import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// What an `exec` program writes reaches the log line by line, however it writes: a line over 4,096 bytes is logged
/// cut, with a mark that says so, and the rest of it skipped; ten megabytes without a newline cost the daemon no more
/// than reading them. A link mailed to make a program print a long line cannot wedge the daemon.
@Suite(.ownThread) struct ProgramOutputTests {
    /// A world with the app `com.example.Output`: `outapp://run/{id}` runs `body` (after it read its link).
    static func world(
        _ body: String,
        reading: String = "cat > /dev/null\n"
    ) throws -> (world: DaemonHarness, log: String) {
        let world = try DaemonHarness()
        let program = try world.script("writer.sh", reading + body)
        let app = """
            {"app": "com.example.Output", "links": [
              {"match": "outapp://run/{id}", "action": {"exec": ["\(program.path)"]}}]}
            """
        try Data(app.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/output.json"))
        return (world, world.root.appendingPathComponent("daemon.txt").path)
    }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test func aLineOver4096BytesIsLoggedCutAndTheNextLineWhole() throws {
        let (world, log) = try Self.world("head -c 5000 /dev/zero | tr '\\0' A\necho\necho after the long line\n")
        let daemon = try world.startDaemon(stderrPath: log)
        defer { daemon.terminate() }
        #expect(try world.run(["open", "outapp://run/1"]).status == 0)
        #expect(
            world.waitUntil(.seconds(10)) { Self.text(log).contains(") exited with status 0") },
            "\(Self.text(log))"
        )
        let lines = Self.text(log).split(separator: "\n")
        let cut = try #require(lines.first { $0.contains("writer.sh: AAAA") })
        let written = String(repeating: "A", count: 4_096) + " [cut: the line was longer than 4096 bytes] ("
        #expect(cut.contains("writer.sh: " + written))
        #expect(lines.contains { $0.contains("writer.sh: after the long line (") })
    }

    @Test func anUnterminatedLongWriteThenExitIsLoggedCutAndTheProgramReaped() throws {
        let (world, log) = try Self.world("head -c 5000 /dev/zero | tr '\\0' B\nexit 3\n")
        let daemon = try world.startDaemon(stderrPath: log)
        defer { daemon.terminate() }
        #expect(try world.run(["open", "outapp://run/1"]).status == 0)
        #expect(
            world.waitUntil(.seconds(10)) { Self.text(log).contains(") exited with status 3") },
            "\(Self.text(log))"
        )
        #expect(Self.text(log).contains("BBBB [cut: the line was longer than 4096 bytes]"))
    }

    /// Three programs each write ten megabytes with no newline, then wait: meanwhile another link is delivered at
    /// once, each program is reaped when it exits (its slot given back), and SIGTERM stops the daemon within its
    /// bound while they still write. Under a sanitizer, beside the whole suite, no bound holds; the two tests above
    /// take the same reading path there.
    @Test(.disabled(if: Sanitizer.isActive, Sanitizer.reason))
    func tenMegabytesWithoutANewlineLeaveTheDaemonResponsive() throws {
        let bytes = 10_000_000
        let (world, log) = try Self.world(
            "head -c \(bytes) /dev/zero | tr '\\0' C\nsleep 1\nhead -c \(bytes) /dev/zero | tr '\\0' C\n"
        )
        let daemon = try world.startDaemon(["--idle-exit", "60"], stderrPath: log)
        for index in 1...3 { #expect(try world.run(["open", "outapp://run/\(index)"]).status == 0) }
        let other = try world.run(["open", "myapp://note/7"])
        #expect(other.status == 0, "\(other)")
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 1 })
        // A bound for a machine that runs two test bundles at once on two cores, where the flood is slowest.
        #expect(
            world.waitUntil(.seconds(90)) {
                // The three writers' exits (the note's program exits too, in its own time).
                Self.text(log).split(separator: "\n").filter {
                    $0.contains(") exited with status 0") && $0.contains("LINKD_APP=com.example.Output")
                }.count == 3
            },
            "\(Self.text(log).suffix(2_000))"
        )
        #expect(Self.text(log).components(separatedBy: "[cut: the line was longer than 4096 bytes]").count == 4)
        // The slots are free again: 64 programs may run, and a next link starts one at once.
        #expect(try world.run(["open", "outapp://run/4"]).status == 0)
        let stopping = ContinuousClock.now
        daemon.terminate()
        daemon.waitUntilExit()
        #expect(ContinuousClock.now - stopping < .seconds(10), "SIGTERM took \(ContinuousClock.now - stopping)")
    }

    /// A program that prints parts and encodings of its link's token gets none of them into the log: not its first
    /// thirty characters, not its last twenty, not its base64 or base64url form (behind other bytes too), not it
    /// percent-encoded.
    @Test func partsAndEncodingsOfALinksSecretAreRedactedFromTheLog() throws {
        let token = "tK9" + UUID().uuidString.replacingOccurrences(of: "-", with: "") + "Zq7xW2"
        let (world, log) = try Self.world(
            #"""
            tok=$(printf '%s' "$payload" | sed -n 's/.*"token": *"\([^"]*\)".*/\1/p')
            printf 'first %s\n' "$(printf %s "$tok" | cut -c1-30)"
            printf 'last %s\n' "$(printf %s "$tok" | tail -c 20)"
            printf 'b64 %s\n' "$(printf %s "$tok" | base64 -w0)"
            printf 'basic %s\n' "$(printf 'user:%s' "$tok" | base64 -w0 | tr '+/' '-_')"
            printf 'pct %s\n' "$(printf %s "$tok" | od -An -tx1 | tr -d ' \n' | sed 's/../%&/g')"
            echo done
            """#,
            reading: "payload=$(cat)\n"
        )
        let daemon = try world.startDaemon(stderrPath: log)
        defer { daemon.terminate() }
        #expect(try world.run(["open", "outapp://run/1?token=\(token)"]).status == 0)
        #expect(
            world.waitUntil(.seconds(10)) { Self.text(log).contains(") exited with status 0") },
            "\(Self.text(log))"
        )
        let text = Self.text(log)
        // What stays of an encoded form is what also holds other bytes' bits: "user:" and the padding.
        let lines = text.split(separator: "\n")
        for (label, written) in [
            ("first", "<redacted>"), ("last", "<redacted>"), ("b64", "<redacted>"), ("basic", "dXNlcjp<redacted>"),
            ("pct", "<redacted>"),
        ] {
            let line = lines.first { $0.contains("writer.sh: \(label) ") } ?? ""
            #expect(line.contains("writer.sh: \(label) \(written)"), "\(label): \(text)")
        }
        #expect(text.contains("writer.sh: done"))
        let forms = [
            String(token.prefix(30)), String(token.suffix(20)), Data(token.utf8).base64EncodedString(),
            String(Data("user:\(token)".utf8).base64EncodedString().dropFirst(8).prefix(40)),
        ]
        for form in forms { #expect(!text.contains(form), "\(form) in \(text)") }
    }
}
