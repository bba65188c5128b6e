import Glibc

/// A process and its ancestors as `/proc` tells them: each one's identity (pid and start time) and session. It says
/// whether a process linkd started is among them, or leads the session of one of them: whether a link that arrives
/// came from that process, however many programs it went through on the way.
package struct ProcessLineage: Sendable, Equatable {
    /// The process and its ancestors, nearest first.
    package private(set) var identities: [ProcessIdentity] = []
    /// Their sessions.
    package private(set) var sessions: Set<Int32> = []

    /// The lineage of `pid` (this process by default), up to `limit` generations (pid 1 and what `/proc` does not
    /// show, such as another user's process, end it).
    package init(of pid: Int32 = getpid(), limit: Int = 64) {
        var next = pid
        while next > 1, identities.count < limit, let facts = Self.facts(of: next) {
            identities.append(facts.identity)
            sessions.insert(facts.session)
            next = facts.parent
        }
    }

    /// Whether `process` is one of the lineage, or leads the session of one (a program started in a session of its
    /// own whose descendants went through a double fork on the way).
    package func descends(from process: ProcessIdentity) -> Bool {
        identities.contains(process) || sessions.contains(process.pid)
    }

    /// Fields 4 (ppid), 6 (session) and 22 (start time) of `/proc/<pid>/stat`.
    private static func facts(of pid: Int32) -> (identity: ProcessIdentity, parent: Int32, session: Int32)? {
        guard let stat = FileSystem.contents(of: "/proc/\(pid)/stat", limit: 4_096),
            let close = stat.lastIndex(of: UInt8(ascii: ")"))
        else { return nil }
        // The command name in parentheses may hold spaces: fields are counted after the last ')' (field 3 first).
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19,
            let parent = Int32(String(decoding: fields[1], as: UTF8.self)),
            let session = Int32(String(decoding: fields[3], as: UTF8.self)),
            let start = UInt64(String(decoding: fields[19], as: UTF8.self))
        else { return nil }
        return (ProcessIdentity(pid: pid, startTime: start), parent, session)
    }
}
