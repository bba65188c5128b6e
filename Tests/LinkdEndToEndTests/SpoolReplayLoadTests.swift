import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// A daemon that finds the spool full at its start: 10,000 `exec` links whose program reads its link, appends it to
/// a file and exits. Each is run once, while the daemon answers new links, and the daemon's memory stays bounded.
/// As root the runtime folder is a tmpfs (in a mount namespace of the test's), as `/run/user/UID` is: the spool's
/// writes are then not timed by the disk's flushes.
@Suite(.ownThread, .serialized, .disabled(if: Sanitizer.isActive, Sanitizer.reason)) struct SpoolReplayLoadTests {
    /// Async, so that its minute of waiting sleeps instead of holding one of the cooperative pool's threads.
    @Test func tenThousandLinksLeftInTheSpoolAreEachReplayedOnceInBoundedMemory() async throws {
        let world = try DaemonHarness()
        let mounts =
            PrivateMount.isAvailable
            ? try PrivateMount(setup: "mount -t tmpfs -o size=64m,mode=0700 tmpfs \(world.runtime.path)") : nil
        let launcher = mounts?.launcher ?? []
        let spool = mounts?.outside(world.spoolPath) ?? world.spoolPath
        let program = [
            "/bin/dd", "status=none", "bs=65536", "oflag=append", "conv=notrunc", "of=\(world.received.path)",
        ]
        let argv = program.map { "\"\($0)\"" }.joined(separator: ", ")
        let app =
            #"{"app": "com.example.Fast", "links": [{"match": "fastapp://n/{id}", "action": {"exec": [\#(argv)]}}]}"#
        try Data(app.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/fast.json"))
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        for number in 0..<10_000 {
            let id = SpoolFiles.id(number)
            let entry = SpoolFiles.entry(id: id, url: "fastapp://n/\(number)", kind: "exec")
            SpoolFiles.write(entry, to: "\(spool)/\(id).json")
        }
        let clock = ContinuousClock()
        let started = clock.now
        let daemon = try world.startDaemon(["--idle-exit", "60"], timeout: .seconds(30), launcher: launcher)
        defer { daemon.terminate() }
        let ready = clock.now - started
        // Until an entry has left (read again at each change of the spool), the spool is full: a new link is refused.
        #expect(await world.waitUntil(within: .seconds(30), folders: [spool]) { world.spoolCount(at: spool) < 10_000 })
        let asked = clock.now
        let live = try world.run(["open", "myapp://note/live"], launcher: launcher)
        let answered = clock.now - asked
        #expect(live.status == 0, "a new link is answered while the replay runs: \(live)")
        // Each program appends to a file, read again at each change.
        #expect(await world.waitUntil(within: .seconds(240), folders: [spool]) { world.spoolCount(at: spool) == 0 })
        #expect(await world.waitUntil(within: .seconds(10)) { world.receivedPayloads().count == 10_001 })
        let replayed = clock.now - started
        let ids = world.receivedPayloads().compactMap { $0["id"] as? String }
        #expect(ids.count == 10_001)
        #expect(Set(ids).count == ids.count, "no link ran twice")
        #expect(Set(ids).isSuperset(of: (0..<10_000).map(SpoolFiles.id)))
        let peak = DaemonHarness.peakResidentKiB(of: daemon.pid)
        #expect(peak > 0 && peak <= 40 * 1_024, "the daemon's peak resident memory: \(peak) KiB")
        print(
            "replay of 10,000 exec links: ready after \(ready), a new link answered in \(answered) once there was room, all run after "
                + "\(replayed); daemon VmHWM \(peak) KiB (spool on \(mounts == nil ? "disk" : "tmpfs"))"
        )
    }
}
