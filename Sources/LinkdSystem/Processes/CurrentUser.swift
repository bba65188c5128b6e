import Glibc

/// The user this process runs as.
package enum CurrentUser {
    /// The real user id (`getuid(2)`).
    package static var id: UInt32 { getuid() }
    /// The effective user id (`geteuid(2)`), which the kernel checks file access against.
    package static var effectiveID: UInt32 { geteuid() }
}
