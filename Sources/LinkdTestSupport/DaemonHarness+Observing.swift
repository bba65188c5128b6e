package import Foundation
import Glibc

extension DaemonHarness {
    /// The pids of the `linkd daemon` processes of this world.
    package func daemonPIDs() -> [Int32] { linkdDaemonPIDs(runtime: runtime.path) }

    /// The log of the daemon `linkd open` started in this world, for failure messages; `(none)` when there is none.
    package func daemonLog() -> String {
        "daemon log: " + ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "(none)")
    }

    /// The lines the recording program received, parsed; lines that are no JSON object are left out.
    package func receivedPayloads() -> [[String: Any]] {
        let text = (try? String(contentsOf: received, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// The links the spool holds (each entry's `url`); empty when there is no spool. A file being written (a hidden
    /// temporary one, renamed over its entry when complete) is not an entry.
    package func spooledURLs() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: spoolPath)) ?? []).compactMap { name in
            guard !name.hasPrefix("."), let data = FileManager.default.contents(atPath: spoolPath + "/" + name) else {
                return nil
            }
            return (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["url"] as? String
        }
    }

    /// The folders whose changes wake a wait: the world's own (what its programs write), the runtime folder
    /// (the socket), the spool, the log folder and apps.d.
    package var watchedFolders: [String] {
        [root.path, runtime.path + "/linkd", spoolPath, state.path + "/linkd", config.path + "/linkd/apps.d"]
    }

    /// Waits until `condition` holds or `timeout` passes, checking it now and again at each change in the world's
    /// folders (``watchedFolders``) and in `folders`: for what shows in files — what a program wrote, the spool, the
    /// socket, the daemon's log. Wait for a child's exit with ``SpawnedProcess/waitUntilExit()``, for a daemon's
    /// start with ``startDaemon(_:extra:stderrPath:timeout:)`` and for its exit with ``waitForDaemonsToExit(_:)``.
    ///
    /// - Returns: whether `condition` held; it is checked once more at the timeout.
    package func waitUntil(_ timeout: Duration, folders: [String] = [], _ condition: () -> Bool) -> Bool {
        FileEvents(watchedFolders + folders).wait(until: .now + timeout, for: condition)
    }

    /// As ``waitUntil(_:folders:_:)``, sleeping between changes instead of blocking the thread: a long test waits
    /// this way, so that the few threads of Swift's cooperative pool (one a core) stay free for the other tests.
    package func waitUntil(
        within timeout: Duration,
        folders: [String] = [],
        _ condition: () -> Bool
    ) async -> Bool {
        await FileEvents(watchedFolders + folders).wait(until: .now + timeout, for: condition)
    }

    /// Waits until no daemon of this world runs, or `timeout` passes: each one's exit is an event (its pidfd).
    ///
    /// - Returns: whether none runs.
    package func waitForDaemonsToExit(_ timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        return ProcessExit.wait(for: daemonPIDs(), until: deadline) && daemonPIDs().isEmpty
    }

    /// Checks `condition` every 20 ms until it holds or `timeout` passes: a poll, for what announces itself by no
    /// event — each caller says why.
    ///
    /// - Returns: whether `condition` held; it is checked once more at the timeout.
    package func poll(_ timeout: Duration, _ condition: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// A new connection to the daemon's socket (or the socket at `path`); the caller closes it.
    ///
    /// - Throws: `POSIXError` with the `connect(2)` error (`ENOENT` or `ECONNREFUSED` when no daemon listens).
    package func connect(path: String? = nil) throws -> Int32 {
        let socketPath = path ?? socketPath
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
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
            let error = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO)
        }
        return fd
    }

    /// Writes an executable `/bin/sh` script `name` with `body` into the world's folder.
    package func script(_ name: String, _ body: String) throws -> URL {
        let url = root.appendingPathComponent(name)
        try ProgramFile.write("#!/bin/sh\n" + body, to: url)
        return url
    }
}

/// The pids of the `linkd daemon` processes whose `XDG_RUNTIME_DIR` is `runtime` (so of one test's world alone), read
/// from `/proc`; a zombie has no command line and is left out.
///
/// A program a daemon is starting reads as the daemon until it calls exec (`posix_spawn` shares the daemon's memory,
/// its command line and environment with it): a match whose parent matches too is such a child, and is left out, so
/// that a test that kills "the daemon" never kills a program that is reading its link.
package func linkdDaemonPIDs(runtime: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    let matches = entries.compactMap(Int32.init).filter { pid in
        guard let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
            let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
        else { return false }
        let words = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return words.count >= 2 && words[0].hasSuffix("linkd") && words[1] == "daemon"
            && String(decoding: environ, as: UTF8.self).contains("XDG_RUNTIME_DIR=\(runtime)\0")
    }
    let daemons = Set(matches)
    return matches.filter { pid in parentPID(of: pid).map { !daemons.contains($0) } ?? false }
}

/// Field 4 of `/proc/<pid>/stat`; `nil` once the process is gone.
private func parentPID(of pid: Int32) -> Int32? {
    guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
        let close = stat.lastIndex(of: UInt8(ascii: ")"))
    else { return nil }
    let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
    return fields.count > 1 ? Int32(String(decoding: fields[1], as: UTF8.self)) : nil
}
