import Foundation
import Glibc
import LinkdTestSupport
import Testing

@testable import LinkdSystem

/// A process's mount table, read as proc_pid_mountinfo(5) writes it, and the way it finds a Flatpak sandbox's
/// `/.flatpak-info` for a process that may not open the sandbox's root.
@Suite struct MountTableTests {
    @Test func aLineGivesItsDeviceRootAndMountPointWithTheirEscapes() {
        let table = MountTable(
            parsing: """
                22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
                79 68 0:45 /user/1000/.flatpak/12\\0403/info /.flatpak-info ro,nosuid - tmpfs tmpfs rw
                80 68 0:45 /a\\134b /odd\\011place ro - tmpfs tmpfs rw
                81 68 0:45 /bad\\9 /x ro - tmpfs tmpfs rw
                82 68 zero / /y ro - tmpfs tmpfs rw
                83 68 0:46 / /.flatpak-info ro - tmpfs tmpfs rw
                84 68 0:46 /half
                """
        )
        #expect(
            table.mounts.map(\.mountPoint) == ["/", "/.flatpak-info", "/odd\tplace", "/.flatpak-info"],
            "a bad escape, a bad device and a cut line are left out"
        )
        #expect(table.mounts[1].root == "/user/1000/.flatpak/12 3/info")
        #expect(table.mounts[1].device == MountTable.device(major: 0, minor: 45))
        #expect(table.mounts[2].root == "/a\\b")
        #expect(table.top(at: "/.flatpak-info")?.device == MountTable.device(major: 0, minor: 46), "the last mount")
        #expect(table.top(at: "/nowhere") == nil)
    }

    @Test func aFileIsReachedBelowEveryMountOfItsFileSystemThatHoldsIt() {
        let mine = MountTable(
            parsing: """
                1 0 0:45 / /run ro - tmpfs tmpfs rw
                2 0 0:45 /user/1000 /run/user/1000 rw - tmpfs tmpfs rw
                3 0 0:45 /user/1000x /elsewhere rw - tmpfs tmpfs rw
                4 0 0:99 /user/1000 /other rw - tmpfs tmpfs rw
                """
        )
        let info = MountTable.Mount(
            device: MountTable.device(major: 0, minor: 45),
            root: "/user/1000/.flatpak/7/info",
            mountPoint: "/.flatpak-info"
        )
        #expect(mine.paths(reaching: info) == ["/run/user/1000/.flatpak/7/info", "/run/user/1000/.flatpak/7/info"])
        let whole = MountTable.Mount(device: info.device, root: "/user/1000", mountPoint: "/x")
        #expect(mine.paths(reaching: whole) == ["/run/user/1000", "/run/user/1000"])
    }

    @Test func theDeviceNumbersAreTheOnesStatGives() throws {
        let table = try #require(MountTable(ofProcess: "self"))
        let root = try #require(table.top(at: "/"))
        var status = stat()
        #expect(stat("/", &status) == 0)
        #expect(root.device == status.st_dev)
        #expect(MountTable(ofProcess: "0") == nil)
    }

    /// The mount table tells a sandbox as its root does (the daemon in its own user namespace has only the table).
    @Test(.disabled(if: !FlatpakStandIn.isAvailable, "needs bubblewrap"))
    func theMountTableTellsAFlatpakSandboxAsItsRootDoes() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("mounts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sandbox = try FlatpakStandIn.arguments(
            appID: "com.example.Notes",
            in: folder,
            running: ["/bin/sleep", "30"]
        )
        let sleeper = try SpawnedProcess(FlatpakStandIn.bwrap, sandbox, environment: [:])
        defer { sleeper.terminate() }
        let sandboxed = try #require(waitForChild(of: sleeper.pid, named: "sleep"))
        #expect(ProcessSandbox.of(processID: sandboxed) == .flatpak(appID: "com.example.Notes"))
        #expect(ProcessSandbox.throughMountTable(of: sandboxed) == .flatpak(appID: "com.example.Notes"))
        #expect(ProcessSandbox.throughMountTable(of: Int32.max) == .unknown(reason: "its mount table cannot be read"))
    }

    /// The pid of the process named `name` below `parent` (bwrap runs its command as a child), within 5 s.
    private func waitForChild(of parent: Int32, named name: String) -> Int32? {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if let found = descendant(of: parent, named: name) { return found }
            usleep(20_000)
        }
        return nil
    }

    private func descendant(of parent: Int32, named name: String) -> Int32? {
        let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) {
            let command = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
            if command == name + "\n" { return child }
            if let below = descendant(of: child, named: name) { return below }
        }
        return nil
    }
}
