import CSystemd
import Glibc
import LinkdSystem

/// Changes in a set of folders, for a test to wait on (inotify(7), blocking or async): a file created, written,
/// moved or removed in one of them, or one of them appearing. A folder that does not exist yet is watched through its
/// nearest existing parent, so that its creation is a change too; after each change the watches are set up again.
///
/// When no inotify instance can be had — a user has 128, and two test runs at once, each with its daemons and
/// `systemd --user` managers, can take them all — it checks every ``pollInterval`` instead: slower to notice, never a
/// test that fails for want of a watch.
package final class FileEvents: Sendable {
    /// The inotify descriptor; `-1` when none could be had (the waits then poll).
    private let descriptor: Int32
    private let folders: [String]

    /// How often a wait checks its condition when there is no inotify instance.
    static let pollInterval = Duration.milliseconds(20)

    /// Watches `folders`; with no inotify instance left (a user has 128), the waits poll every ``pollInterval``.
    package init(_ folders: [String]) {
        descriptor = linkd_inotify_create()
        self.folders = folders
        if descriptor >= 0 { addWatches() }
    }

    deinit {
        guard descriptor >= 0 else { return }
        Reactor.shared.forget(FileDescriptor(rawValue: descriptor))
        Glibc.close(descriptor)
    }

    /// The least time between two checks of a condition: a burst of changes (a program appending line after line)
    /// is one check, not one each.
    static let burst = Duration.milliseconds(10)

    /// Waits until `condition` holds, checking it now and again after each change, until `deadline`.
    ///
    /// - Returns: whether it held; it is checked once more at the deadline.
    package func wait(until deadline: ContinuousClock.Instant, for condition: () -> Bool) -> Bool {
        while !condition() {
            let checked = ContinuousClock.now
            guard waitForChange(until: deadline) else { return condition() }
            let calm = checked + Self.burst
            // The clock is read once: a thread paused between two reads could find the pause negative, which
            // UInt32 traps on.
            let pause = calm - .now
            if pause > .zero, calm < deadline { usleep(UInt32(pause.components.attoseconds / 1_000_000_000_000)) }
        }
        return true
    }

    /// As ``wait(until:for:)``, sleeping between changes instead of blocking the thread, so that the few threads of
    /// Swift's cooperative pool stay free for the tests that run beside it.
    package func wait(until deadline: ContinuousClock.Instant, for condition: () -> Bool) async -> Bool {
        while !condition() {
            let checked = ContinuousClock.now
            guard await nextChange(until: deadline) else { return condition() }
            let calm = checked + Self.burst
            if calm > .now, calm < deadline { try? await Task.sleep(until: calm) }
        }
        return true
    }

    /// Blocks until the next change or `deadline`; `false` at the deadline.
    private func waitForChange(until deadline: ContinuousClock.Instant) -> Bool {
        let remaining = deadline - .now
        guard remaining > .zero else { return false }
        guard descriptor >= 0 else {
            usleep(UInt32(Self.milliseconds(min(remaining, Self.pollInterval))) * 1_000)
            return true
        }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let result = poll(&entry, 1, Self.milliseconds(remaining))
        guard result > 0 else { return false }
        drain()
        addWatches()
        return true
    }

    /// Suspends until the next change or `deadline` without holding a thread: the descriptor is awaited on the
    /// reactor that the daemon's own sockets and folder watches use. A change is queued on the descriptor, so none is
    /// missed between two waits.
    private func nextChange(until deadline: ContinuousClock.Instant) async -> Bool {
        guard descriptor >= 0 else {
            let remaining = deadline - .now
            guard remaining > .zero else { return false }
            try? await Task.sleep(for: min(remaining, Self.pollInterval))
            return true
        }
        do {
            try await Reactor.shared.wait(for: FileDescriptor(rawValue: descriptor), deadline: deadline)
        } catch {
            return false
        }
        drain()
        addWatches()
        return true
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1)
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while buffer.withUnsafeMutableBytes({ Glibc.read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Watches each folder, or for one that does not exist its nearest existing parent.
    private func addWatches() {
        for folder in folders {
            var path = folder
            while !path.isEmpty, linkd_inotify_watch_folder(descriptor, path) < 0 {
                guard let slash = path.lastIndex(of: "/") else { break }
                path = slash == path.startIndex ? (path == "/" ? "" : "/") : String(path[..<slash])
            }
        }
    }
}

/// The exit of a process that is not the test's child (a daemon `linkd open` started), as an event: its pidfd
/// (pidfd_open(2)) becomes readable when it exits.
package enum ProcessExit {
    /// Waits until every one of `pids` has exited, or `deadline`.
    ///
    /// - Returns: whether they all exited (one that is already gone counts).
    package static func wait(for pids: [Int32], until deadline: ContinuousClock.Instant) -> Bool {
        for pid in pids {
            let fd = linkd_pidfd_open(pid)
            guard fd >= 0 else { continue }  // ESRCH: gone already
            defer { Glibc.close(fd) }
            let remaining = deadline - .now
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard remaining > .zero, poll(&entry, 1, milliseconds(remaining)) > 0 else { return false }
        }
        return true
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}
