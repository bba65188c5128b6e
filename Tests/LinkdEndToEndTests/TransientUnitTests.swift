import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// The programs of `exec` links under a real `systemd --user` manager: each in a transient unit of its own,
/// `app-linkd-<app>@<random>.service` in `app.slice`, as desktops start the apps they launch.
@Suite(.ownThread, .serialized, .enabled(if: SystemdUserManager.isAvailable, "needs root, unshare and systemd"))
struct TransientUnitTests {
    /// Installs an app whose links run `body` (a shell script) with the link on standard input.
    private func install(_ body: String, in manager: SystemdUserManager) throws {
        try manager.installApp(running: "#!/bin/sh\n" + body)
    }

    private func text(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    /// Whether the manager has let go of `unit` (collected it) before `deadline`, asking every 50 ms.
    private func collected(
        _ unit: String,
        by manager: SystemdUserManager,
        until deadline: ContinuousClock.Instant
    ) -> Bool {
        while ContinuousClock.now < deadline {
            if let listed = try? manager.systemctl(["list-units", "--all", unit]), !listed.output.contains(unit) {
                return true
            }
            usleep(50_000)
        }
        return false
    }

    @Test func aProgramRunsInAUnitOfItsOwnOutlivesTheDaemonAndItsOutputIsRedacted() throws {
        let manager = try SystemdUserManager(daemonArguments: "")
        let record = manager.home.appendingPathComponent("record.txt")
        let release = manager.home.appendingPathComponent("release")
        let secret = "tok-\(UUID().uuidString)"
        // It runs on until the test lets it go, whatever the machine's load.
        try install(
            """
            link=$(cat)
            { grep '^0::' /proc/self/cgroup; echo "parent $PPID"; echo "$link"; } > \(record.path).part
            mv \(record.path).part \(record.path)
            echo "the program got $link"
            n=0; until [ -e \(release.path) ]; do sleep 0.05; n=$((n+1)); [ $n -gt 1200 ] && exit 1; done
            echo done >> \(record.path)

            """,
            in: manager
        )
        let opened = try manager.run(["open", "myapp://note/1?token=\(secret)"])
        #expect(opened.status == 0, "\(opened)\n\(manager.output)")
        let events = FileEvents([manager.home.path])
        #expect(events.wait(until: .now + .seconds(10)) { !text(record).isEmpty })
        let lines = text(record).split(separator: "\n").map(String.init)
        let cgroup = try #require(lines.first)
        let unit = try #require(
            cgroup.firstMatch(of: /\/app\.slice\/(app-linkd-com\.example\.Notes@[0-9a-f]{16}\.service)$/)
        )
        let name = String(unit.output.1)
        let daemons = manager.daemonPIDs()
        #expect(daemons.count == 1)
        #expect(!daemons.map { "parent \($0)" }.contains(lines[1]), "the program is no child of the daemon")
        #expect(lines[2].hasPrefix("{") && lines[2].contains(secret))  // the payload: the link's route
        // The manager lists it as its own unit while it runs; stopping linkd leaves it running.
        let listed = try manager.systemctl(["list-units", "app-linkd-*"])
        #expect(listed.output.contains(name), "\(listed.output)")
        let status = try manager.run(["status"])
        #expect(status.stdout.contains("programs: 1 running, each in a unit of its own: \(name)\n"), "\(status)")
        #expect(try manager.systemctl(["stop", "linkd.service"]).status == 0)
        #expect(ProcessExit.wait(for: daemons, until: .now + .seconds(10)))
        #expect(FileManager.default.createFile(atPath: release.path, contents: Data()))
        #expect(events.wait(until: .now + .seconds(10)) { text(record).hasSuffix("done\n") }, "the program ran on")
        // The log names the unit, and shows the program's output with the link's secret redacted.
        let log = manager.output
        #expect(log.contains("delivered to '\(manager.home.path)/program.sh' (unit \(name), pid "), "\(log)")
        #expect(log.contains("the program got"))
        #expect(!log.contains(secret))
        // Once it has exited, the unit is collected.
        #expect(collected(name, by: manager, until: .now + .seconds(10)))
    }

    @Test func aProgramThatNeverReadsItsLinkIsStoppedAtTheLimit() throws {
        let manager = try SystemdUserManager(daemonArguments: "", daemonEnvironment: ["LINKD_EXEC_TIME_LIMIT": "1"])
        let started = manager.home.appendingPathComponent("started.txt")
        try install("grep '^0::' /proc/self/cgroup > \(started.path)\nexec sleep 60\n", in: manager)
        let opened = try manager.run(["open", "myapp://note/2"])
        #expect(opened.status == 69, "\(opened)\n\(manager.output)")
        #expect(opened.stderr.contains("the program did not read the link in time"), "\(opened)")
        let name = try #require(text(started).firstMatch(of: /(app-linkd-com\.example\.Notes@[0-9a-f]{16}\.service)/))
        let unit = String(name.output.1)
        // The manager stopped it (SIGTERM) and collected it.
        #expect(collected(unit, by: manager, until: .now + .seconds(10)))
    }

    /// A daemon killed before its program read the link: systemd starts another, which ends that program (in its
    /// unit) and runs the link once more, in a unit of its own.
    @Test(.disabled(if: Sanitizer.isActive, Sanitizer.reason))
    func aKilledDaemonsUnreadLinkIsReplayedOnceInANewUnit() throws {
        let manager = try SystemdUserManager(daemonArguments: "")
        let started = manager.home.appendingPathComponent("started.txt")
        let received = manager.home.appendingPathComponent("received.txt")
        // The first run waits 20 s before it reads — the replay ends it long before, however busy the machine; the
        // replay finds the marker and reads at once.
        try install(
            """
            echo "$$ $(grep '^0::' /proc/self/cgroup)" >> \(started.path)
            [ -s \(received.path).first ] || { : > \(received.path).first; sleep 20; }
            cat >> \(received.path)

            """,
            in: manager
        )
        let opening = try SpawnedProcess(
            SystemdUserManager.launcher[0],
            Array(SystemdUserManager.launcher.dropFirst()) + [manager.executable.path, "open", "myapp://note/7"],
            environment: manager.environment,
            stdoutPath: "/dev/null",
            stderrPath: "/dev/null"
        )
        let events = FileEvents([manager.home.path])
        #expect(events.wait(until: .now + .seconds(10)) { !text(started).isEmpty })
        let daemons = manager.daemonPIDs()
        kill(opening.pid, SIGKILL)
        opening.waitUntilExit()
        for daemon in daemons { kill(daemon, SIGKILL) }
        #expect(ProcessExit.wait(for: daemons, until: .now + .seconds(5)))
        // Restart=on-failure: the manager starts a daemon again, which replays the spool.
        #expect(
            events.wait(until: .now + .seconds(30)) { text(received).contains("myapp://note/7") },
            "\(manager.output)"
        )
        let runs = text(started).split(separator: "\n").map(String.init)
        #expect(runs.count == 2, "\(runs)")
        let units = Set(
            runs.compactMap { $0.firstMatch(of: /app-linkd-com\.example\.Notes@[0-9a-f]{16}\.service/) }.map {
                String($0.output)
            }
        )
        #expect(units.count == 2, "each run in a unit of its own: \(runs)")
        let first = try #require(Int32(runs.first?.split(separator: " ").first ?? ""))
        #expect(ProcessExit.wait(for: [first], until: .now + .seconds(5)), "the first run was ended")
        #expect(text(received).components(separatedBy: "myapp://note/7").count == 2, "the link ran once more")
    }

    /// 64 programs run at once, each in its unit; the 65th link is refused (75) while they all run.
    @Test(.disabled(if: Sanitizer.isActive, Sanitizer.reason))
    func sixtyFourProgramsRunAtOnceInUnitsAndTheSixtyFifthIsRefused() throws {
        let manager = try SystemdUserManager(daemonArguments: "")
        let pids = manager.home.appendingPathComponent("pids")
        let running = { text(pids).split(separator: "\n").compactMap { Int32($0) } }
        try install("echo $$ >> \(pids.path)\ncat > /dev/null\nexec sleep 120\n", in: manager)
        let links = (1...64).map { "myapp://note/\($0)" }.joined(separator: "\n") + "\n"
        let opened = try manager.run(["open", "-"], stdin: Data(links.utf8))
        #expect(opened.status == 0, "\(opened)\n\(manager.output)")
        #expect(running().count == 64)
        let listed = try manager.systemctl(["list-units", "app-linkd-*", "--no-legend"])
        #expect(listed.output.split(separator: "\n").count == 64, "\(listed.output)")
        let refused = try manager.run(["open", "myapp://note/65"])
        #expect(refused.status == 75, "\(refused)")
        #expect(refused.stderr.contains("[too_many_programs]"), "\(refused)")
        for pid in running() { kill(pid, SIGKILL) }
    }

    /// The daemon runs in the unit's sandbox under an unprivileged user's manager; the program of its link does not:
    /// it writes under HOME and makes a user namespace, while the daemon has no new privileges, a system call filter,
    /// no capabilities, a read-only HOME and a user namespace of its own.
    @Test(.disabled(if: Sanitizer.isActive, Sanitizer.reason))
    func theDaemonIsSandboxedAndItsProgramIsNot() throws {
        let manager = try SystemdUserManager(daemonArguments: "")
        let record = manager.home.appendingPathComponent("record.txt")
        try install(
            """
            cat > /dev/null
            {
              touch \(manager.home.path)/written && echo "wrote under HOME"
              unshare -U true && echo "made a user namespace"
              grep -E '^(NoNewPrivs|Seccomp|CapBnd):' /proc/self/status
              readlink /proc/self/ns/user
            } > \(record.path).part 2>&1
            mv \(record.path).part \(record.path)

            """,
            in: manager
        )
        let opened = try manager.run(["open", "myapp://note/1"])
        #expect(opened.status == 0, "\(opened)\n\(manager.output)")
        let events = FileEvents([manager.home.path])
        #expect(events.wait(until: .now + .seconds(10)) { !text(record).isEmpty })
        let program = text(record)
        #expect(program.contains("wrote under HOME\nmade a user namespace\n"), "\(program)")
        #expect(program.contains("NoNewPrivs:\t0") && program.contains("Seccomp:\t0"), "\(program)")
        let daemon = try #require(manager.daemonPIDs().first)
        let status = text(URL(fileURLWithPath: "/proc/\(daemon)/status"))
        #expect(status.contains("NoNewPrivs:\t1") && status.contains("Seccomp:\t2"), "\(status)")
        #expect(status.contains("CapBnd:\t0000000000000000"), "\(status)")
        // Not dumpable (its core-dump guard ran inside the filter): the kernel gives its /proc files to root.
        let environ = try FileManager.default.attributesOfItem(atPath: "/proc/\(daemon)/environ")
        #expect((environ[.ownerAccountID] as? NSNumber)?.intValue == 0, "\(environ)")
        let namespace = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon)/ns/user")
        #expect(!program.contains(namespace), "the daemon has a user namespace of its own")
        // Its HOME is on a read-only mount, but for its own folders: the mount each is on, the deepest that holds it.
        let mounts = text(URL(fileURLWithPath: "/proc/\(daemon)/mountinfo")).split(separator: "\n").map {
            $0.split(separator: " ").map(String.init)
        }
        func options(of path: String) -> String? {
            mounts.filter { path == $0[4] || path.hasPrefix($0[4] == "/" ? "/" : $0[4] + "/") }
                .max { $0[4].count < $1[4].count }?[5]
        }
        #expect(options(of: manager.home.path)?.hasPrefix("ro") == true, "\(mounts.map { $0[4] })")
        #expect(options(of: manager.home.path + "/.local/state/linkd")?.hasPrefix("rw") == true)
    }
}
