import Glibc

/// A process as the kernel tells it apart from any later one with the same pid: its pid and its start time (clock
/// ticks after boot, field 22 of `/proc/<pid>/stat`).
package struct ProcessIdentity: Sendable, Hashable, Codable {
    package var pid: Int32
    package var startTime: UInt64

    package init(pid: Int32, startTime: UInt64) {
        self.pid = pid
        self.startTime = startTime
    }

    /// The identity of the running process `pid`; `nil` when there is none.
    package static func of(_ pid: Int32) -> ProcessIdentity? {
        guard let stat = FileSystem.contents(of: "/proc/\(pid)/stat", limit: 4_096),
            let close = stat.lastIndex(of: UInt8(ascii: ")"))
        else { return nil }
        // The command name in parentheses may hold spaces: fields are counted after the last ')' (field 3 first).
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19, let start = UInt64(String(decoding: fields[19], as: UTF8.self)) else { return nil }
        return ProcessIdentity(pid: pid, startTime: start)
    }

    /// Whether this very process still runs (a later process with the same pid is not it).
    package var isRunning: Bool { Self.of(pid) == self }

    /// Sends `signal` to this process, if it still runs.
    package func send(_ signal: Int32) {
        guard isRunning else { return }
        _ = Glibc.kill(pid, signal)
    }

    /// Ends this process at once (`SIGKILL`), if it still runs.
    package func kill() {
        send(SIGKILL)
    }
}
