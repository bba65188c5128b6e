import Foundation
import Glibc
import Testing

/// A private world for daemon tests: its own XDG folders (so its own socket, spool, config and log), an app whose
/// links run a recording program, and helpers to run `linkd` in it and to find its daemons.
final class DaemonHarness: Sendable {
    let root: URL
    let runtime: URL
    let config: URL
    let state: URL
    /// Where the recording program appends what it received (one JSON line per link).
    let received: URL
    /// Where it records its own argv and environment, for the canary scans.
    let processInfoLog: URL

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["XDG_CONFIG_HOME"] = config.path
        environment["XDG_STATE_HOME"] = state.path
        environment.removeValue(forKey: "LISTEN_FDS")
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")  // the machine's session bus is not this world's
        return environment
    }

    var socketPath: String { runtime.path + "/linkd/socket" }
    var spoolPath: String { runtime.path + "/linkd/spool" }
    var logPath: String { state.path + "/linkd/linkd.log" }

    /// - Parameter delay: seconds the recording program sleeps after reading, before it records.
    init(delay: Double = 0) throws {
        root = URL(fileURLWithPath: "/tmp/linkd-d-\(UUID().uuidString.prefix(8))")
        runtime = root.appendingPathComponent("xrt")
        config = root.appendingPathComponent("config")
        state = root.appendingPathComponent("state")
        received = root.appendingPathComponent("received.jsonl")
        processInfoLog = root.appendingPathComponent("process.txt")
        for folder in [runtime, config.appendingPathComponent("linkd/apps.d"), state] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        chmod(runtime.path, 0o700)
        let program = root.appendingPathComponent("record.sh")
        try Data(
            """
            #!/bin/sh
            payload=$(cat)
            tr '\\0' ' ' < /proc/$$/cmdline >> \(processInfoLog.path)
            env >> \(processInfoLog.path)
            sleep \(delay)
            printf '%s\\n' "$payload" >> \(received.path)

            """.utf8
        ).write(to: program)
        chmod(program.path, 0o755)
        let slow = root.appendingPathComponent("slow.sh")
        try Data("#!/bin/sh\nsleep 1\ncat > /dev/null\nsleep \(delay)\n".utf8).write(to: slow)
        chmod(slow.path, 0o755)
        try writeApps(program: program.path, slow: slow.path)
    }

    func writeApps(program: String, slow: String) throws {
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

    /// Runs `linkd` in this world (with `extra` environment).
    func run(_ arguments: [String], stdin: Data = Data(), extra: [String: String] = [:]) throws -> LinkdProcess.Output {
        try LinkdProcess.run(arguments, stdin: stdin, environment: environment.merging(extra) { $1 })
    }

    /// Starts `linkd` (or `executable`) in this world without waiting (with `extra` environment, output to `stderrPath`).
    func start(
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

    /// The pids of `linkd daemon` processes of this world.
    func daemonPIDs() -> [Int32] { linkdDaemonPIDs(runtime: runtime.path) }

    /// The log of the daemon `linkd open` started in this world (for failure messages).
    func daemonLog() -> String {
        "daemon log: " + ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "(none)")
    }

    /// The lines the recording program received, parsed.
    func receivedPayloads() -> [[String: Any]] {
        let text = (try? String(contentsOf: received, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// Waits until `condition` holds, for up to `seconds`.
    func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// A raw connection to the daemon's socket.
    func connect() throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in socketPath.utf8.enumerated() { buffer[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return fd
    }
}

extension Int32 {
    /// Writes `text` to this descriptor.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(self, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads one line (without LF) or what there is before EOF, waiting up to `seconds`.
    func readLine(timeout seconds: Int = 10) -> String? {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(self, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(self, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }
}

/// The pids of `linkd daemon` processes whose `XDG_RUNTIME_DIR` is `runtime` (so of one test's world alone).
func linkdDaemonPIDs(runtime: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
        guard let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
            let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
        else { return false }
        let words = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return words.count >= 2 && words[0].hasSuffix("linkd") && words[1] == "daemon"
            && String(decoding: environ, as: UTF8.self).contains("XDG_RUNTIME_DIR=\(runtime)\0")
    }
}
