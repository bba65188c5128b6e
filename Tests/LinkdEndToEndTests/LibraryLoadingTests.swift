import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// linkd links neither libsystemd nor libcurl: each is loaded by the first call that needs it, so a `linkd open` whose
/// link is delivered (no desktop session to notify) starts without their libraries. The dynamic loader's own log
/// (`LD_DEBUG=files`, on standard error) says which files a process loaded.
@Suite(.ownThread) struct LibraryLoadingTests {
    static func loaded(_ log: String, _ library: String) -> Bool {
        log.split(separator: "\n").contains { $0.contains("file=\(library)") }
    }

    @Test func aDeliveredLinkLoadsNeitherLibsystemdNorLibcurl() throws {
        let world = try DaemonHarness()
        let daemonLog = world.root.path + "/daemon.err"
        let daemon = try world.startDaemon(extra: ["LD_DEBUG": "files"], stderrPath: daemonLog)
        defer { daemon.terminate() }
        let open = try world.run(["open", "myapp://note/7"], extra: ["LD_DEBUG": "files"])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(Self.loaded(open.stderr, "libc.so.6"), "the loader's log is there: \(open.stderr.prefix(300))")
        #expect(!Self.loaded(open.stderr, "libsystemd.so.0"))
        #expect(!Self.loaded(open.stderr, "libcurl.so.4"))
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 1 })
        // The daemon was told to notify its manager (NOTIFY_SOCKET): that loaded libsystemd, at run time.
        let log = try String(contentsOfFile: daemonLog, encoding: .utf8)
        #expect(log.contains("file=libsystemd.so.0 [0];  dynamically loaded by"), "\(log.suffix(600))")
    }

    /// On a machine without libsystemd (here: the file hidden under /dev/null in a mount namespace of the test's),
    /// linkd still delivers links; what needs libsystemd (the `dbus` action) says that it could not be loaded.
    @Test(.enabled(if: PrivateMount.isAvailable, "needs root, unshare and nsenter"))
    func withoutLibsystemdLinksAreStillDeliveredAndTheDBusActionSaysWhy() throws {
        let world = try DaemonHarness()
        let app = """
            {"app": "org.example.LinkdTest", "links": [
              {"match": "myapp://share/{id}", "action": {"dbus": "org.example.LinkdTest"}}]}
            """
        try Data(app.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/dbus-test.json"))
        let mounts = try PrivateMount(
            setup: """
                for library in $(ldconfig -p | awk '$1 == "libsystemd.so.0" { print $NF }'); do
                    mount --bind /dev/null "$(readlink -f "$library")"
                done
                """
        )
        defer { for pid in world.daemonPIDs() { kill(pid, SIGTERM) } }
        let delivered = try world.run(["open", "myapp://note/7"], launcher: mounts.launcher)
        #expect(delivered.status == 0, "\(delivered.stderr)")
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 1 })
        let bus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(world.root.path)/no-bus"]
        let refused = try world.run(["open", "myapp://share/1"], extra: bus, launcher: mounts.launcher)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("failed to load libsystemd: "), "\(refused.stderr)")
    }
}
