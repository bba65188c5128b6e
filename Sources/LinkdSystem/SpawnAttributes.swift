import CSystemd
package import Glibc

/// `posix_spawn` attributes that give the child a clean signal state: nothing blocked, every handler at its default.
///
/// A child inherits its parent's signal mask through `exec`. Parents that block signals on some thread (test runners,
/// Dispatch workers) would otherwise hand the daemon or a helper a blocked `SIGTERM`, and it could not be stopped.
package enum SpawnAttributes {
    /// Calls `body` with attributes for `posix_spawn`.
    package static func withClean<Result>(_ body: (UnsafePointer<posix_spawnattr_t>) -> Result) -> Result {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return withUnsafePointer(to: &attributes) { body($0) }
    }

    /// Makes the child close every descriptor from 3 up, so that it inherits none its parent happened to hold open
    /// (a script open for writing there would make that script's exec fail with ETXTBSY while the child lives).
    package static func closeInherited(_ actions: inout posix_spawn_file_actions_t) {
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
    }
}
