package import Foundation
import Glibc

/// A private world for daemon tests: its own XDG folders (so its own socket, spool, config and log), an app whose
/// links run a recording program, and helpers to run `linkd` in it and to find its daemons.
///
/// The world's folder is removed, and its daemons killed, when the harness goes.
package final class DaemonHarness: Sendable {
    /// The world's folder, `/tmp/linkd-d-<random>`.
    package let root: URL
    /// Its `XDG_RUNTIME_DIR` (mode 0700), where the daemon's socket and spool are.
    package let runtime: URL
    /// Its `XDG_CONFIG_HOME`, with `linkd/apps.d`.
    package let config: URL
    /// Its `XDG_STATE_HOME`, where the daemon's log is.
    package let state: URL
    /// Its `XDG_CACHE_HOME`, where association files are kept.
    package let cache: URL
    /// Where the recording program appends what it received (one JSON line per link).
    package let received: URL
    /// Where it records its own argv and environment, for the canary scans.
    package let processInfoLog: URL

    /// The daemon's socket.
    package var socketPath: String { runtime.path + "/linkd/socket" }
    /// The daemon's spool folder (one JSON file per link it holds).
    package var spoolPath: String { runtime.path + "/linkd/spool" }
    /// The log of a daemon that `linkd open` started.
    package var logPath: String { state.path + "/linkd/linkd.log" }

    /// The machine's environment with this world's XDG folders, and no `LISTEN_FDS`, `NOTIFY_SOCKET` or session bus.
    package var environment: [String: String] {
        ProcessInfo.processInfo.environment(changing: [
            "XDG_RUNTIME_DIR": runtime.path, "XDG_CONFIG_HOME": config.path, "XDG_STATE_HOME": state.path,
            "XDG_CACHE_HOME": cache.path,
            "LISTEN_FDS": nil, "NOTIFY_SOCKET": nil,
            "DBUS_SESSION_BUS_ADDRESS": nil,  // the machine's session bus is not this world's
        ])
    }

    /// Creates the world, with the apps of ``writeApps(program:slow:)``.
    ///
    /// - Parameter delay: seconds the recording program sleeps after reading, before it records.
    /// - Throws: when a folder or file cannot be written.
    package init(delay: Double = 0) throws {
        root = URL(fileURLWithPath: "/tmp/linkd-d-\(UUID().uuidString.prefix(8))")
        runtime = root.appendingPathComponent("xrt")
        config = root.appendingPathComponent("config")
        state = root.appendingPathComponent("state")
        cache = root.appendingPathComponent("cache")
        received = root.appendingPathComponent("received.jsonl")
        processInfoLog = root.appendingPathComponent("process.txt")
        for folder in [runtime, config.appendingPathComponent("linkd/apps.d"), state] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        chmod(runtime.path, 0o700)
        let program = root.appendingPathComponent("record.sh")
        try ProgramFile.write(
            """
            #!/bin/sh
            payload=$(cat)
            tr '\\0' ' ' < /proc/$$/cmdline >> \(processInfoLog.path)
            env >> \(processInfoLog.path)
            sleep \(delay)
            printf '%s\\n' "$payload" >> \(received.path)

            """,
            to: program
        )
        let slow = root.appendingPathComponent("slow.sh")
        try ProgramFile.write("#!/bin/sh\nsleep 1\ncat > /dev/null\nsleep \(delay)\n", to: slow)
        try writeApps(program: program.path, slow: slow.path)
    }

    /// Writes the app `com.example.Notes`: `myapp://note/{id}` runs `program --open-link`, `myapp://slow/{id}` runs
    /// `slow`, `myapp://inbox/{id}` is forwarded and `myapp://reset` is a Supabase reset.
    ///
    /// - Throws: when the file cannot be written.
    package func writeApps(program: String, slow: String) throws {
        let app = """
            {"app": "com.example.Notes", "links": [
              {"match": "myapp://note/{id}", "action": {"exec": ["\(program)", "--open-link"]}},
              {"match": "myapp://slow/{id}", "action": {"exec": ["\(slow)"]}},
              {"match": "myapp://inbox/{id}", "action": "forward"},
              {"match": "myapp://reset", "format": "supabase", "action": "reset"}],
             "backend": {"kind": "supabase", "url": "https://abcd.supabase.co", "apiKey": "anon"}}
            """
        try Data(app.utf8).write(to: config.appendingPathComponent("linkd/apps.d/notes.json"))
    }

    deinit {
        for pid in daemonPIDs() { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: root)
    }

    /// Runs `linkd` in this world (with `extra` environment, through `launcher`) and waits for it to exit.
    ///
    /// - Throws: when `linkd` cannot be started.
    package func run(
        _ arguments: [String],
        stdin: Data = Data(),
        extra: [String: String] = [:],
        launcher: [String] = []
    ) throws -> LinkdProcess.Output {
        try LinkdProcess.run(
            arguments,
            stdin: stdin,
            environment: environment.merging(extra) { $1 },
            launcher: launcher
        )
    }

    /// Starts `linkd` (or `executable`) in this world without waiting (with `extra` environment, output to the
    /// paths).
    ///
    /// - Throws: when an output file cannot be opened or the program cannot be started.
    package func start(
        _ arguments: [String],
        executable: String = LinkdProcess.executable.path,
        extra: [String: String] = [:],
        stdoutPath: String = "/dev/null",
        stderrPath: String = "/dev/null"
    ) throws -> SpawnedProcess {
        try SpawnedProcess(
            executable,
            arguments,
            environment: environment.merging(extra) { $1 },
            stdoutPath: stdoutPath,
            stderrPath: stderrPath
        )
    }

    /// Starts `linkd daemon` with `arguments` in this world (through `launcher`) and waits for its `READY=1`, which it
    /// sends through `sd_notify(3)` (to a ``NotifySocket`` of this call's) once it listens and has read its spool.
    ///
    /// - Throws: ``HarnessError/exitedEarly(program:status:)`` when the daemon exits first,
    ///   ``HarnessError/timedOut(waitingFor:after:)`` when `timeout` passes first (it keeps running then), or
    ///   an error starting it.
    package func startDaemon(
        _ arguments: [String] = [],
        extra: [String: String] = [:],
        stderrPath: String = "/dev/null",
        timeout: Duration = .seconds(10),
        launcher: [String] = []
    ) throws -> SpawnedProcess {
        let notify = try NotifySocket(path: root.path + "/notify-\(UUID().uuidString.prefix(8))")
        let command = launcher + [LinkdProcess.executable.path, "daemon"] + arguments
        let daemon = try start(
            Array(command.dropFirst()),
            executable: command[0],
            extra: extra.merging(["NOTIFY_SOCKET": notify.path]) { $1 },
            stderrPath: stderrPath
        )
        try notify.waitForReady(of: daemon, timeout: timeout)
        return daemon
    }
}
