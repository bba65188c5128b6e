import CSystemd

/// What a linkd process does about its own memory, which holds tokens and passwords for a moment.
package enum ProcessHardening {
    /// Forbids core dumps of this process and makes it non-dumpable, so that a crash writes no secret to disk and
    /// another process of the same user cannot read its memory or environment (`ptrace`, `/proc/<pid>/mem`). Under
    /// systemd the unit's `LimitCORE=0` does the first part already; outside systemd nothing else would.
    ///
    /// Programs linkd starts are dumpable again (`execve` resets it) and may raise the core limit back.
    ///
    /// - Throws: ``SystemdError/systemCall(operation:errno:)`` when the kernel refuses (it does not on Linux ≥ 2.6).
    package static func forbidCoreDumps() throws(SystemdError) {
        let result = linkd_forbid_core_dumps()
        if result < 0 { throw .systemCall(operation: "forbid core dumps", errno: Errno(rawValue: -result)) }
    }
}
