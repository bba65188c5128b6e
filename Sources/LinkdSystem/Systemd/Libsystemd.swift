import CSystemd

/// libsystemd's calls, loaded by the first one made (`dlopen`, see Sources/CSystemd/libsystemd.h): a `linkd open`
/// whose link is delivered never loads it. On a machine without libsystemd the notifier sends its datagrams itself,
/// the log goes to standard error, and what cannot be done without it says so (``SystemError/libsystemdMissing``):
/// a daemon given sockets by its manager, and the session bus (the `dbus` action, notifications).
enum Libsystemd {
    nonisolated(unsafe) private static let loaded: Result<UnsafePointer<linkd_systemd_api>, SystemError> = {
        if let table = linkd_systemd_load() { return .success(table) }
        let reason = linkd_systemd_load_error().map { String(cString: $0) } ?? "libsystemd.so.0 could not be loaded"
        return .failure(.libsystemdMissing(reason: reason))
    }()

    /// The table of calls, loaded on first use.
    ///
    /// - Throws: ``SystemError/libsystemdMissing(reason:)``, every time, when the library or a call of it is missing.
    static func calls() throws(SystemError) -> UnsafePointer<linkd_systemd_api> {
        try loaded.get()
    }
}
