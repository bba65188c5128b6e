/// The environment the daemon runs with and hands to the programs it starts: an allow-list, whoever started it.
///
/// A daemon that `linkd open` starts would otherwise inherit the whole environment of that one client — a mail
/// client's `LD_PRELOAD` or `LD_LIBRARY_PATH` (an AppImage's), which would flow into the libraries the daemon loads
/// and into every program it starts, or `SSLKEYLOGFILE`, with which libcurl writes the TLS secrets of the request
/// carrying a new password to a file. What the daemon keeps: where the person's files and session are (`HOME`,
/// `USER`, `LOGNAME`, `XDG_*` but an activation token, `DBUS_SESSION_BUS_ADDRESS`, `DISPLAY`, `WAYLAND_DISPLAY`,
/// `XAUTHORITY`), the language (`LANG`, `LANGUAGE`, `LC_*`, `TZ`), what its service manager hands it (`LISTEN_*`,
/// `NOTIFY_SOCKET`, `WATCHDOG_*`, `JOURNAL_STREAM`, `INVOCATION_ID`, `MANAGERPID`, `SYSTEMD_EXEC_PID`), linkd's own
/// settings (`LINKD_*`), and the options of a sanitizer build (`ASAN_OPTIONS` and the like, read by nothing else).
/// `PATH` is the fixed program search path (``XDGDirectories/programSearchPath``).
package enum DaemonEnvironment {
    private static let names: Set<String> = [
        "HOME", "USER", "LOGNAME", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "LANG",
        "LANGUAGE", "TZ", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "WATCHDOG_PID",
        "WATCHDOG_USEC", "JOURNAL_STREAM", "INVOCATION_ID", "MANAGERPID", "SYSTEMD_EXEC_PID", "ASAN_OPTIONS",
        "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS",
    ]
    private static let prefixes = ["XDG_", "LC_", "LINKD_"]
    /// Kept by no one: a launch's activation token belongs to that launch, not to a daemon that outlives it.
    private static let excluded: Set<String> = ["XDG_ACTIVATION_TOKEN"]

    /// Whether the daemon keeps the variable `name` (`PATH` it replaces).
    package static func keeps(_ name: String) -> Bool {
        guard !excluded.contains(name) else { return false }
        return names.contains(name) || prefixes.contains { name.hasPrefix($0) }
    }

    /// `environment` with only the variables the daemon keeps, and `PATH` set to the program search path.
    package static func filtered(_ environment: [String: String]) -> [String: String] {
        var kept = environment.filter { keeps($0.key) }
        kept["PATH"] = XDGDirectories(environment: kept).programSearchPath
        return kept
    }
}
