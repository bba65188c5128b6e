import CSystemd
import FoundationEssentials
import Glibc

/// What a linkd process does about its own memory, which holds tokens and passwords for a moment.
package enum ProcessHardening {
    /// Forbids core dumps of this process and makes it non-dumpable, so that a crash writes no secret to disk and
    /// another process of the same user cannot read its memory or environment (`ptrace`, `/proc/<pid>/mem`). Under
    /// systemd the unit's `LimitCORE=0` does the first part already; outside systemd nothing else would.
    ///
    /// Programs linkd starts are dumpable again (`execve` resets it) and may raise the core limit back.
    ///
    /// - Throws: ``SystemError/systemCall(operation:errno:)`` when the kernel refuses (it does not on Linux ≥ 2.6).
    package static func forbidCoreDumps() throws(SystemError) {
        let result = linkd_forbid_core_dumps()
        if result < 0 { throw .systemCall(operation: "forbid core dumps", errno: Errno(rawValue: -result)) }
    }
}

extension ProcessHardening {
    /// Makes this process's environment `environment`: every variable it does not name is removed (`unsetenv(3)`),
    /// every one it names is set (`setenv(3)`). Call it first thing, before other threads read the environment and
    /// before a library that reads it (libcurl) is loaded.
    package static func replaceEnvironment(with environment: [String: String]) {
        let names = ProcessInfo.processInfo.environment.keys
        for name in names where environment[name] == nil { unsetenv(name) }
        for (name, value) in environment { setenv(name, value, 1) }
    }

    /// The variables with which a TLS library writes the secrets of every connection to a file (libcurl, OpenSSL's
    /// key log callback, GnuTLS and NSS read `SSLKEYLOGFILE`; GnuTLS also `GNUTLS_KEYLOGFILE`).
    package static let keyLogVariables = ["SSLKEYLOGFILE", "GNUTLS_KEYLOGFILE"]

    /// Removes ``keyLogVariables`` from this process's environment (`unsetenv(3)`), so that no request this process
    /// sends (a new password, a token, a code) has its keys written to a file, nor those of any program it starts.
    /// Call it first thing, before other threads read the environment and before libcurl is loaded.
    package static func forgetKeyLogs() {
        for name in keyLogVariables { unsetenv(name) }
    }

    /// Ignores `SIGPIPE`, so that writing to a peer that went away fails with `EPIPE` instead of ending the process.
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
