import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// The spool under faults: full, on a full disk, unwritable, and holding files that are no entries. A link the
/// spool cannot take is refused before it is acknowledged (75, a reason, a clear message); nothing it already
/// accepted is lost.
@Suite(.ownThread, .serialized) struct SpoolFaultTests {
    static let canary = "c4nary3b8e51"
    static let never = 4_102_444_800  // 2100: links that never expire while a test runs

    /// 10 apps whose `queueN://inbox/{id}` links are forwarded, 1,000 queued links each (the per-app queue limit):
    /// 10,000 entries, the spool's cap.
    private func fillWithForwardLinks(_ world: DaemonHarness) throws -> Set<String> {
        var urls: Set<String> = []
        try FileManager.default.createDirectory(atPath: world.spoolPath, withIntermediateDirectories: true)
        for app in 0..<10 {
            let config =
                #"{"app": "com.example.Q\#(app)", "links": [{"match": "queue\#(app)://inbox/{id}", "action": "forward"}]}"#
            try Data(config.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/q\(app).json"))
            for link in 0..<1_000 {
                let id = SpoolFiles.id(app * 1_000 + link)
                let url = "queue\(app)://inbox/\(link)"
                let members = #""app": "com.example.Q\#(app)", "expires": \#(Self.never)"#
                SpoolFiles.write(
                    SpoolFiles.entry(id: id, url: url, kind: "forward", members: members),
                    to: "\(world.spoolPath)/\(id).json"
                )
                urls.insert(url)
            }
        }
        return urls
    }

    @Test func aFullSpoolRefusesLinksBeforeAcknowledgingThemAndKeepsWhatItHolds() throws {
        let world = try DaemonHarness()
        let held = try fillWithForwardLinks(world)
        let daemon = try world.startDaemon(["--idle-exit", "30"], timeout: .seconds(30))
        defer { daemon.terminate() }
        let refused = try world.open(["myapp://note/1", "myapp://inbox/1"])
        let message =
            "linkd already holds 10000 links waiting for their apps; nothing was done with this one: "
            + "open it again later"
        #expect(refused == Array(repeating: .init(accepted: false, reason: "spool_full", message: message), count: 2))
        #expect(try world.run(["open", "myapp://note/2"]).status == 75)
        #expect(world.receivedPayloads().isEmpty)
        #expect(world.spoolCount() == 10_000)
        var forwarded: [String] = []
        for app in 0..<10 {
            forwarded += try world.forwardedURLs(of: "com.example.Q\(app)", count: 1_000).urls
        }
        #expect(forwarded.count == 10_000)
        #expect(held.subtracting(forwarded).count == 0, "every link the spool held reached its app")
        // A link leaves the spool once written to its subscriber (read again at each change of the spool).
        #expect(world.waitUntil(.seconds(10)) { world.spoolCount() == 0 })
        #expect(try world.open(["myapp://note/3"]) == [.init(accepted: true)])
    }

    /// A file where the spool's folder should be: links are refused, saying why; once it is gone, the folder is
    /// made again and links are accepted.
    @Test func aFileInPlaceOfTheSpoolFolderRefusesLinksUntilItIsGone() throws {
        let world = try DaemonHarness()
        try FileManager.default.createDirectory(
            atPath: world.runtime.path + "/linkd",
            withIntermediateDirectories: true
        )
        chmod(world.runtime.path + "/linkd", 0o700)
        #expect(FileManager.default.createFile(atPath: world.spoolPath, contents: Data("x".utf8)))
        let output = try world.run(["open", "myapp://note/1", "myapp://inbox/1"])
        #expect(output.status == 75, "\(output)")
        let line =
            "Error: link 1: linkd cannot write its spool '\(world.spoolPath)' (Not a directory); nothing was done "
            + "with the link: open it again once the folder can be written [spool_unwritable]\n"
        #expect(output.stderr == line + line.replacing("link 1", with: "link 2"))
        #expect(world.receivedPayloads().isEmpty)
        try FileManager.default.removeItem(atPath: world.spoolPath)
        #expect(try world.run(["open", "myapp://note/2"]).status == 0)
        #expect(world.waitUntil(.seconds(5)) { world.receivedPayloads().count == 1 })
    }

    /// A spool on a read-only file system (a bind mount, in a mount namespace of the test's: as root, permissions
    /// would not stop the daemon): the daemon still starts and refuses each link, saying why.
    @Test(.enabled(if: PrivateMount.isAvailable, "needs root, unshare and nsenter"))
    func aReadOnlySpoolRefusesLinksBeforeAcknowledgingThem() throws {
        let world = try DaemonHarness()
        let spool = world.spoolPath
        let mounts = try PrivateMount(
            setup: """
                mkdir -p \(spool) && chmod 700 \(world.runtime.path)/linkd \(spool)
                mount --bind \(spool) \(spool) && mount -o remount,bind,ro \(spool)
                """
        )
        let outcomes = try world.open(["myapp://note/1", "myapp://inbox/1"], launcher: mounts.launcher)
        let message =
            "linkd cannot write its spool '\(spool)' (Read-only file system); nothing was done with the link: "
            + "open it again once the folder can be written"
        #expect(
            outcomes
                == Array(repeating: .init(accepted: false, reason: "spool_unwritable", message: message), count: 2),
            "\(world.daemonLog())"
        )
        #expect(try world.run(["open", "myapp://note/2"], launcher: mounts.launcher).status == 75)
        #expect(world.receivedPayloads().isEmpty)
        #expect(world.daemonLog().contains("the spool cannot be written, links are refused: "))
        for pid in world.daemonPIDs() { kill(pid, SIGTERM) }
    }
}
