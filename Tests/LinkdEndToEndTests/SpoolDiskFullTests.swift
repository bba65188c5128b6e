import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// The daemon's runtime folder on a small tmpfs (in a mount namespace of the test's) that a filler file fills: links
/// are refused before they are acknowledged, what was accepted before is kept and delivered, and links are accepted
/// again once the filler is deleted.
@Suite(.ownThread, .serialized) struct SpoolDiskFullTests {
    /// Fills the file system that holds the file `filler` with it, to the last byte.
    private func fill(_ filler: String) {
        let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(fd) }
        let page = [UInt8](repeating: 0x2a, count: 4_096)
        while write(fd, page, page.count) > 0 {}
        while write(fd, page, 1) > 0 {}
    }

    @Test(.enabled(if: PrivateMount.isAvailable, "needs root, unshare and nsenter"))
    func aFullDiskRefusesLinksBeforeAcknowledgingThemAndServiceResumesWithSpace() throws {
        let world = try DaemonHarness()
        let mounts = try PrivateMount(setup: "mount -t tmpfs -o size=256k,mode=0700 tmpfs \(world.runtime.path)")
        defer { for pid in world.daemonPIDs() { kill(pid, SIGTERM) } }
        let links = { (phase: String) in
            (1...5).map { "myapp://note/\(phase)-\($0)" } + (1...5).map { "myapp://inbox/\(phase)-\($0)" }
        }
        let accepted = OpenOutcome(accepted: true)
        let before = try world.open(links("before"), launcher: mounts.launcher)
        #expect(before == Array(repeating: accepted, count: 10), "\(world.daemonLog())")

        let filler = mounts.outside(world.runtime.path + "/filler")
        fill(filler)
        let full = try world.open(links("full") + links("full2"), launcher: mounts.launcher)
        let message =
            "the disk holding linkd's spool '\(world.spoolPath)' is full; nothing was done with the link: open it "
            + "again once there is space"
        #expect(full == Array(repeating: OpenOutcome(reason: "disk_full", message: message), count: 20))
        let output = try world.run(["open", "myapp://note/full-3"], launcher: mounts.launcher)
        #expect(output.status == 75)
        #expect(output.stderr == "Error: link 1: \(message) [disk_full]\n")

        try FileManager.default.removeItem(atPath: filler)
        let after = try world.open(links("after"), launcher: mounts.launcher)
        #expect(after == Array(repeating: accepted, count: 10))

        let forwarded = try world.forwardedURLs(
            of: "com.example.Notes",
            count: 10,
            path: mounts.outside(world.socketPath)
        ).urls
        #expect(forwarded == (1...5).map { "myapp://inbox/before-\($0)" } + (1...5).map { "myapp://inbox/after-\($0)" })
        // The program appends what it read after the daemon's answer (read again at each change of its file).
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 10 })
        let ran = world.receivedPayloads().compactMap { $0["url"] as? String }
        #expect(
            Set(ran) == Set((1...5).map { "myapp://note/before-\($0)" } + (1...5).map { "myapp://note/after-\($0)" })
        )
        #expect(
            world.waitUntil(.seconds(5), folders: [mounts.outside(world.spoolPath)]) {
                world.spoolCount(at: mounts.outside(world.spoolPath)) == 0
            }
        )
        let sent = before.count + full.count + 1 + after.count
        let refused = full.count + 1
        print(
            "disk full: \(sent) links sent, \(sent - refused) accepted, \(refused) refused (75 disk_full), "
                + "\(forwarded.count + ran.count) delivered (\(ran.count) to the program, \(forwarded.count) forwarded)"
        )
    }
}
