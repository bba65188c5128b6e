package import Foundation
import Glibc

/// A real `systemd --user` manager of an unprivileged user (`nobody`), as a person's is: in a private mount
/// namespace with a tmpfs on /run/systemd with /run/systemd/system, a control group of its own delegated to the
/// user, and its own HOME and XDG_RUNTIME_DIR under /home (not /tmp, which the daemon's unit makes private). The
/// units are installed and enabled (`sockets.target.wants`) before it starts, so it listens on linkd's socket from
/// boot. The commands that talk to it (``run(_:stdin:extra:)``, ``systemctl(_:)``) run as the same user.
///
/// The unit runs a copy of the built linkd in the manager's folder (``executable``), so that the manager's user
/// reaches it wherever the repository was cloned (a folder only its owner may enter, as a home often is).
///
/// The manager is stopped and its folder and control group removed when the value goes.
package final class SystemdUserManager: Sendable {
    /// The user the manager runs as: `nobody`.
    package static let uid: UInt32 = 65_534

    /// Whether one can run here: as root, with `unshare`, `setpriv` and systemd installed.
    package static var isAvailable: Bool {
        getuid() == 0 && access("/usr/lib/systemd/systemd", X_OK) == 0 && access("/usr/bin/unshare", X_OK) == 0
            && access("/usr/bin/setpriv", X_OK) == 0 && access("/home", W_OK) == 0
    }

    /// What runs a command as the manager's user.
    package static let launcher = [
        "/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups",
    ]

    /// The manager's folder, `/home/linkd-sd-<random>`.
    package let root: URL
    /// Its HOME, with the units in `.config/systemd/user`.
    package let home: URL
    /// Its XDG_RUNTIME_DIR, where its private bus and linkd's socket are.
    package let runtime: URL
    /// The copy of the built linkd that its unit runs, and ``run(_:stdin:extra:)`` too.
    package let executable: URL
    private let manager: SpawnedProcess

    /// The machine's environment with the manager's HOME and XDG_RUNTIME_DIR and no XDG config or state folders:
    /// the environment for a `linkd` that talks to this manager.
    package var environment: [String: String] {
        ProcessInfo.processInfo.environment(changing: [
            "HOME": home.path, "XDG_RUNTIME_DIR": runtime.path, "XDG_CONFIG_HOME": nil, "XDG_STATE_HOME": nil,
        ])
    }

    /// Installs the shipped units (ExecStart at the built binary, with `daemonArguments`), starts the manager and
    /// waits for its `READY=1`, which a user manager sends on reaching `basic.target`, so once `sockets.target` is
    /// reached and linkd's socket listens.
    ///
    /// - Throws: when the units cannot be installed or the manager cannot be started; ``HarnessError`` when it exits,
    ///   or is not ready within 15 s.
    package init(daemonArguments: String, daemonEnvironment: [String: String] = [:]) throws {
        root = URL(fileURLWithPath: "/home/linkd-sd-\(UUID().uuidString.prefix(8))")
        home = root.appendingPathComponent("home")
        runtime = root.appendingPathComponent("xrt")
        executable = root.appendingPathComponent("linkd")
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent(".config/systemd/user"),
            withIntermediateDirectories: true
        )
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        try Self.copyExecutable(LinkdProcess.executable, to: executable)
        // Under AddressSanitizer, a leak found at the daemon's exit would make its exit status LeakSanitizer's (23), and
        // systemd would start it again (`Restart=on-failure`): the daemons of a user manager run with the leak check
        // off, any other finding still ends them with a failure. The daemons the tests start themselves keep it.
        let sanitizing = Sanitizer.isActive ? ["ASAN_OPTIONS": "detect_leaks=0"] : [:]
        try Self.installUnits(
            in: home,
            executable: executable.path,
            daemonArguments: daemonArguments,
            environment: daemonEnvironment.merging(sanitizing) { mine, _ in mine }
        )
        Self.giveToUser(root)
        try Self.checkUserRuns(executable)
        let notify = try NotifySocket(path: root.path + "/notify")
        chmod(notify.path, 0o666)  // the manager, which is not root, reports to it
        let cgroup = Self.controlGroup(of: root)
        manager = try SpawnedProcess(
            "/usr/bin/unshare",
            [
                "-m", "--propagation", "private", "/bin/sh", "-c",
                // A control group of its own in each hierarchy the manager uses, so that managers of tests that run at
                // once do not share (and stop) each other's app.slice.
                // It is delegated to the user, as systemd's user@.service delegates one.
                "for h in systemd unified; do [ -d /sys/fs/cgroup/$h ] || continue; "
                    + "mkdir -p /sys/fs/cgroup/$h/\(cgroup) && echo $$ > /sys/fs/cgroup/$h/\(cgroup)/cgroup.procs "
                    + "&& chown -R \(Self.uid):\(Self.uid) /sys/fs/cgroup/$h/\(cgroup); done; "
                    + "mkdir -p /run/systemd && mount -t tmpfs tmpfs /run/systemd && mkdir -p /run/systemd/system && "
                    + "exec " + Self.launcher.joined(separator: " ")
                    + " env -i HOME=\(home.path) XDG_RUNTIME_DIR=\(runtime.path) PATH=/usr/sbin:/usr/bin:/sbin:/bin "
                    + "NOTIFY_SOCKET=\(notify.path) /usr/lib/systemd/systemd --user",
            ],
            environment: ProcessInfo.processInfo.environment,
            stdoutPath: root.path + "/manager.log",
            stderrPath: root.path + "/manager.err"
        )
        do {
            try notify.waitForReady(of: manager, timeout: .seconds(15))
        } catch {
            // What the manager (or the set-up before it) said is gone with `root`: the error carries it.
            let said = ["manager.err", "manager.log"].compactMap {
                try? String(contentsOfFile: root.path + "/" + $0, encoding: .utf8)
            }
            let last = said.joined().split(separator: "\n").suffix(20).joined(separator: "\n")
            throw HarnessError.unexpected(what: "the systemd --user manager's start (\(error))", got: last)
        }
    }

    deinit {
        manager.terminate()
        manager.waitUntilExit()
        try? FileManager.default.removeItem(at: root)
        for hierarchy in ["systemd", "unified"] {
            Self.removeControlGroup("/sys/fs/cgroup/\(hierarchy)/\(Self.controlGroup(of: root))")
        }
    }

    /// Checks that the manager's user can run `executable` (`linkd --version`): a toolchain whose libraries it cannot
    /// read would otherwise show only as a unit that never starts.
    ///
    /// - Throws: ``HarnessError/unexpected(what:got:)`` with what it printed when it cannot.
    private static func checkUserRuns(_ executable: URL) throws {
        var output = try LinkdProcess.run(["--version"], launcher: launcher, executable: executable)
        // A process another test forks in the instant the copy is written holds the file open for writing until it
        // runs its own program (ETXTBSY, "Text file busy"): that ends at once, and the run is tried again.
        for _ in 0..<20 where output.status == 126 && output.stderr.contains("Text file busy") {
            usleep(50_000)
            output = try LinkdProcess.run(["--version"], launcher: launcher, executable: executable)
        }
        guard output.status == 0 else {
            throw HarnessError.unexpected(
                what: "'linkd --version' run as the manager's user (uid \(uid))",
                got: "\(output)"
            )
        }
    }

    /// Copies `source` to `target` (mode 0755) through a descriptor closed on exec, so that a process another test
    /// starts meanwhile does not keep the copy open for writing, which would make running it fail (ETXTBSY).
    private static func copyExecutable(_ source: URL, to target: URL) throws {
        let bytes = try Data(contentsOf: source)
        let descriptor = open(target.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else {
            throw HarnessError.unexpected(
                what: "a copy of linkd at \(target.path)",
                got: String(cString: strerror(errno))
            )
        }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw HarnessError.unexpected(what: "a copy of linkd at \(target.path)", got: "\(written) bytes written")
        }
        fchmod(descriptor, 0o755)
    }

    /// Makes `folder` and everything in it the manager's user's.
    private static func giveToUser(_ folder: URL) {
        let paths =
            [folder.path]
            + (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
            .map { folder.path + "/" + $0 }
        for path in paths { lchown(path, uid, uid) }
    }

    /// Runs `linkd ARGUMENTS` as the manager's user, against it (its HOME and XDG_RUNTIME_DIR, with `extra`).
    ///
    /// When `linkd.service` fails to start twice while linkd runs past its first 5 s (systemd restarting a daemon
    /// that cannot start; unless `failsFast` is false, for a test of what linkd itself does then), or linkd runs
    /// longer than `limit`, linkd is killed and its standard error ends with why, and the unit's status.
    ///
    /// - Throws: when `linkd` cannot be started.
    package func run(
        _ arguments: [String],
        stdin: Data = Data(),
        extra: [String: String] = [:],
        failsFast: Bool = true,
        limit: Duration = .seconds(120)
    ) throws -> LinkdProcess.Output {
        let started = ContinuousClock.now
        var restarts: Int?  // read first once linkd has run 5 s: a command that ends sooner costs no systemctl
        return try LinkdProcess.run(
            arguments,
            stdin: stdin,
            environment: environment.merging(extra) { $1 },
            launcher: Self.launcher,
            executable: executable
        ) {
            guard ContinuousClock.now - started > .seconds(5) else { return nil }
            let now = serviceRestarts()
            let failed = failsFast ? now - (restarts ?? now) : 0
            restarts = restarts ?? now
            guard failed >= 2 || ContinuousClock.now - started > limit else { return nil }
            let why = failed >= 2 ? "linkd.service failed to start \(failed) times" : "it ran longer than \(limit)"
            return why + "\n" + ((try? systemctl(["status", "linkd.service"]))?.output ?? "")
        }
    }

    /// How many times systemd restarted `linkd.service` after a failure (its `NRestarts`).
    private func serviceRestarts() -> Int {
        let shown = try? systemctl(["show", "--property=NRestarts", "--value", "linkd.service"])
        return Int(shown?.output.filter(\.isNumber) ?? "") ?? 0
    }

    /// The name of the control group of the manager whose folder is `root`: `linkd-test-<the folder's random part>`.
    private static func controlGroup(of root: URL) -> String {
        "linkd-test-" + root.lastPathComponent.dropFirst("linkd-sd-".count)
    }

    /// Removes the control group at `path` and the ones under it, deepest first (a control group is removed with
    /// rmdir(2) once it holds no process).
    private static func removeControlGroup(_ path: String) {
        let below = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
            .filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: path + "/" + $0)) == nil }
            .map { path + "/" + $0 }
            .filter {
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: $0, isDirectory: &isFolder) && isFolder.boolValue
            }
        for folder in below.sorted(by: { $0.count > $1.count }) + [path] { rmdir(folder) }
    }

    private static func installUnits(
        in home: URL,
        executable: String,
        daemonArguments: String,
        environment: [String: String]
    ) throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let units = home.appendingPathComponent(".config/systemd/user")
        let socket = try String(
            contentsOf: repository.appendingPathComponent("packaging/systemd/linkd.socket"),
            encoding: .utf8
        )
        let service = try String(
            contentsOf: repository.appendingPathComponent("packaging/systemd/linkd.service"),
            encoding: .utf8
        )
        .replacingOccurrences(
            of: "ExecStart=/usr/bin/linkd daemon",
            with: "ExecStart=\(executable) daemon \(daemonArguments)"
                + environment.map { "\nEnvironment=\($0.key)=\($0.value)" }.sorted().joined()
                // No journal runs here: the daemon's log goes to a file the tests read (``output``).
                + "\nStandardOutput=append:\(home.deletingLastPathComponent().path)/daemon.log"
                + "\nStandardError=append:\(home.deletingLastPathComponent().path)/daemon.log"
        )
        try Data(socket.utf8).write(to: units.appendingPathComponent("linkd.socket"))
        try Data(service.utf8).write(to: units.appendingPathComponent("linkd.service"))
        let wants = units.appendingPathComponent("sockets.target.wants")
        try FileManager.default.createDirectory(at: wants, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: wants.appendingPathComponent("linkd.socket").path,
            withDestinationPath: "../linkd.socket"
        )
    }

    /// Installs `com.example.Notes`, whose links `myapp://note/{id}` run `program` (written as the executable
    /// `program.sh` in the manager's HOME) with the link on standard input.
    ///
    /// - Throws: when the files cannot be written.
    package func installApp(running program: String) throws {
        let path = home.appendingPathComponent("program.sh")
        try ProgramFile.write(program, to: path)
        let apps = home.appendingPathComponent(".config/linkd/apps.d")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        let link = #"{"match": "myapp://note/{id}", "action": {"exec": ["\#(path.path)"]}}"#
        let config = #"{"app": "com.example.Notes", "links": [\#(link)]}"#
        try Data(config.utf8).write(to: apps.appendingPathComponent("notes.json"))
    }

    /// Installs the GApplication of ``PrivateSessionBus`` (`org.example.LinkdTest`) as D-Bus-activatable on the
    /// manager's session bus (its folder of transient services, `$XDG_RUNTIME_DIR/dbus-1/services`, which the bus
    /// watches once it runs); it writes each URI it is opened with to the returned file.
    ///
    /// - Throws: when the files cannot be written.
    package func installDBusApp() throws -> URL {
        let opened = root.appendingPathComponent("dbus-opened.txt")
        let script = root.appendingPathComponent("dbus-app.py")
        let app = PrivateSessionBus.app(
            opened: opened.path,
            started: root.appendingPathComponent("dbus-started.txt").path
        )
        try Data(app.utf8).write(to: script)
        let services = runtime.appendingPathComponent("dbus-1/services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let service = """
            [D-BUS Service]
            Name=\(PrivateSessionBus.appID)
            Exec=/usr/bin/python3 \(script.path) --gapplication-service

            """
        try Data(service.utf8).write(to: services.appendingPathComponent("\(PrivateSessionBus.appID).service"))
        Self.giveToUser(runtime)
        try reloadBus()
        return opened
    }

    /// Installs linkd's own D-Bus service file (the shipped one, its `Exec` at ``executable``) on the manager's session
    /// bus, so that a call to `io.linkd.Linkd1` starts `linkd.service`, and a copy of the built example app in the
    /// manager's folder, which it returns.
    ///
    /// - Throws: when the files cannot be written.
    package func installLinkdBusService() throws -> URL {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let shipped = try String(
            contentsOf: repository.appendingPathComponent("share/dbus-1/services/io.linkd.Linkd1.service"),
            encoding: .utf8
        )
        let services = runtime.appendingPathComponent("dbus-1/services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        try Data(shipped.replacingOccurrences(of: "Exec=/usr/bin/linkd", with: "Exec=\(executable.path)").utf8)
            .write(to: services.appendingPathComponent("io.linkd.Linkd1.service"))
        let app = root.appendingPathComponent("linkd-example-app")
        try FileManager.default.copyItem(
            at: LinkdProcess.executable.deletingLastPathComponent().appendingPathComponent("linkd-example-app"),
            to: app
        )
        chmod(app.path, 0o755)
        Self.giveToUser(root)
        try reloadBus()
        return app
    }

    /// Starts the manager's session bus if it was not running, or tells it to read its service folders again.
    private func reloadBus() throws {
        let reload = try SpawnedProcess(
            Self.launcher[0],
            Array(Self.launcher.dropFirst()) + [
                "/usr/bin/busctl", "--user", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus", "ReloadConfig",
            ],
            environment: environment,
            stdoutPath: "/dev/null",
            stderrPath: "/dev/null"
        )
        reload.waitUntilExit()
    }

    /// Runs `systemctl --user ARGUMENTS` against this manager and waits for it.
    ///
    /// - Returns: its exit status and standard output.
    /// - Throws: when it cannot be started.
    package func systemctl(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let output = root.appendingPathComponent("systemctl-\(UUID().uuidString.prefix(8)).txt")
        let process = try SpawnedProcess(
            Self.launcher[0],
            Array(Self.launcher.dropFirst()) + ["/usr/bin/systemctl", "--user", "--no-pager", "--plain"] + arguments,
            environment: environment,
            stdoutPath: output.path,
            stderrPath: output.path
        )
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: output) }
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// What the manager wrote to its standard output and error, and the daemons' log.
    package var output: String {
        ["manager.log", "manager.err", "daemon.log"].map {
            (try? String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) ?? ""
        }.joined()
    }

    /// The pids of the daemons systemd started for this manager.
    package func daemonPIDs() -> [Int32] { linkdDaemonPIDs(runtime: runtime.path) }
}
