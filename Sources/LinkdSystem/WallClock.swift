import Glibc

/// The time of day (`CLOCK_REALTIME`): what expiries written to files and the times at the start of log lines use.
package enum WallClock {
    /// Now, in whole seconds since the Unix epoch.
    package static var seconds: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec)
    }

    /// Now in ISO 8601, in UTC with milliseconds: `2025-01-31T09:05:03.042Z` (`clock_gettime(2)`, `gmtime_r(3)`).
    package static func iso8601() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var parts = tm()
        var seconds = time.tv_sec
        gmtime_r(&seconds, &parts)
        let milliseconds = Int(time.tv_nsec) / 1_000_000
        return "\(Int(parts.tm_year) + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec)).\(milliseconds < 100 ? "0" : "")\(two(Int32(milliseconds)))Z"
    }

    private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
