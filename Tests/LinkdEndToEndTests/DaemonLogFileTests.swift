import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// The daemon's log file: links in it by scheme and host only, each line timed, and rotated at 1 MiB by the daemon
/// itself, whoever started it.
@Suite(.ownThread) struct DaemonLogFileTests {
    static let marker = "SECRETPATHx7f3a9c"

    /// Whether `line` starts with an ISO 8601 time.
    static func isTimed(_ line: Substring) -> Bool {
        line.prefixMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d) /#) != nil
    }

    /// Fills the world's log file (0600) with `size` bytes of lines an earlier daemon wrote.
    static func fillLog(of world: DaemonHarness, size: Int) throws {
        let folder = world.state.appendingPathComponent("linkd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
        let line = "2025-01-01T00:00:00.000Z linkd: an earlier line\(String(repeating: ".", count: 60))\n"
        let text = String(repeating: line, count: size / line.utf8.count + 1)
        try Data(text.utf8.prefix(size)).write(to: URL(fileURLWithPath: world.logPath))
        chmod(world.logPath, 0o600)
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int) ?? -1
    }

    @Test func logsAMissByItsSchemeAndHostAndTheClientHearsTheSame() throws {
        let world = try DaemonHarness()
        let output = try world.run(["open", "myapp://nosuch/\(Self.marker)", "myapp://note/1/\(Self.marker)"])
        #expect(output.status == 1, "\(output)")
        // The client hears the miss by scheme and host too (a click shows it in a notification, which the desktop
        // keeps); 'linkd route' explains it on the terminal.
        #expect(output.stderr.contains("no app claims this 'myapp://nosuch' link"), "\(output)")
        #expect(!output.stderr.contains(Self.marker))
        let log = try String(contentsOfFile: world.logPath, encoding: .utf8)
        #expect(!log.contains(Self.marker), "\(log)")
        #expect(log.contains("linkd: refused a link to 'myapp://nosuch': no_app"))
        #expect(log.contains("linkd: refused a link to 'myapp://note': no_app"))
    }

    @Test func aDaemonStartedByHandRotatesTheLogItWritesTo() throws {
        let world = try DaemonHarness()
        try Self.fillLog(of: world, size: (1 << 20) - 16_384)
        let filled = Self.size(world.logPath)
        // Standard error appended to the log file, as someone might start it by hand.
        let notify = try NotifySocket(path: world.root.path + "/notify")
        let daemon = try world.start(
            ["-c", #"exec "$0" daemon --idle-exit 60 2>>"$1""#, LinkdProcess.executable.path, world.logPath],
            executable: "/bin/sh",
            extra: ["NOTIFY_SOCKET": notify.path]
        )
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        try notify.waitForReady(of: daemon, timeout: .seconds(10))
        let path = "/" + String(repeating: "p", count: 16_000) + "/" + Self.marker
        let links = (0..<500).map { "myapp://nosuch\($0)\(path)\n" }.joined()
        let output = try world.run(["open", "-"], stdin: Data(links.utf8))
        #expect(output.status == 1)
        let older = world.logPath + ".1"
        let total = Self.size(world.logPath) + Self.size(older)
        #expect(total <= 2 << 20, "the log and its older file hold \(total) bytes")
        #expect(FileManager.default.fileExists(atPath: older), "no rotation: the log holds \(total) bytes")
        #expect(Self.mode(world.logPath) == 0o600 && Self.mode(older) == 0o600)
        let current = try String(contentsOfFile: world.logPath, encoding: .utf8)
        let previous = (try? String(contentsOfFile: older, encoding: .utf8)) ?? ""
        #expect(!current.contains(Self.marker) && !previous.contains(Self.marker))
        #expect(previous.hasPrefix("2025-01-01T00:00:00.000Z linkd: an earlier line"), "the older file is the old log")
        let lines = (previous.dropFirst(filled) + current).split(separator: "\n")
        #expect(lines.allSatisfy(Self.isTimed), "\(lines.prefix(3))")
        #expect(lines.filter { $0.contains("refused a link to 'myapp://nosuch") }.count == 500, "no line is lost")
    }

    @Test func aDaemonLinkdOpenStartsRotatesALogThatIsFullAlready() throws {
        let world = try DaemonHarness()
        try Self.fillLog(of: world, size: (1 << 20) + 1)
        let output = try world.run(["open", "myapp://nosuch/\(Self.marker)"])
        #expect(output.status == 1, "\(output)")
        let older = world.logPath + ".1"
        #expect(Self.size(older) == (1 << 20) + 1)
        #expect(Self.mode(world.logPath) == 0o600 && Self.mode(older) == 0o600)
        let current = try String(contentsOfFile: world.logPath, encoding: .utf8)
        #expect(current.contains("linkd: refused a link to 'myapp://nosuch': no_app"))
        #expect(current.split(separator: "\n").allSatisfy(Self.isTimed), "\(current)")
    }

    /// Where the client runs under a journal stream but the machine has no journal to send to, the daemon it starts
    /// writes to the log file, timed, without the stream's `<N>` prefixes.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/run/systemd/journal/socket")))
    func aLogFileIsNoJournalStreamWhateverTheClientInherited() throws {
        let world = try DaemonHarness()
        let output = try world.run(["open", "myapp://nosuch/1"], extra: ["JOURNAL_STREAM": "8:12345"])
        #expect(output.status == 1, "\(output)")
        let log = try String(contentsOfFile: world.logPath, encoding: .utf8)
        #expect(log.contains("linkd: refused a link to 'myapp://nosuch': no_app"))
        #expect(log.split(separator: "\n").allSatisfy(Self.isTimed), "\(log)")
    }
}
