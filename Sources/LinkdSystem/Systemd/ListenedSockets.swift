import CSystemd
import Glibc

/// A socket systemd passed to this process (`LISTEN_FDS`), with its name (`FileDescriptorName=`).
package struct ListenedSocket: Sendable, Hashable {
    /// The descriptor, from 3 up.
    package var descriptor: FileDescriptor
    /// The name systemd gave it (`linkd.socket` by default), or `unknown`.
    package var name: String
}

/// The sockets systemd passed to this process.
package enum ListenedSockets {
    /// Reads `LISTEN_FDS`, `LISTEN_PID` and `LISTEN_FDNAMES` through `sd_listen_fds_with_names(3)` and unsets them, so
    /// that children do not inherit them.
    ///
    /// - Returns: the sockets, none when the process was not socket-activated (or `LISTEN_PID` is another's).
    /// - Throws: ``SystemError/listenFailed(errno:)``, or ``SystemError/libsystemdMissing(reason:)`` when
    ///   `LISTEN_FDS` is set.
    package static func take() throws(SystemError) -> [ListenedSocket] {
        try takeResult().get()
    }

    static func takeResult() -> Result<[ListenedSocket], SystemError> {
        // Without LISTEN_FDS there is nothing to take, and no reason to load libsystemd.
        guard getenv("LISTEN_FDS") != nil else { return .success([]) }
        let calls: UnsafePointer<linkd_systemd_api>
        do { calls = try Libsystemd.calls() } catch { return .failure(error) }
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = calls.pointee.listen_fds_with_names(1, &names)
        guard count >= 0 else { return .failure(.listenFailed(errno: Errno(rawValue: -count))) }
        defer {
            if let names {
                for index in 0..<Int(count) { free(names[index]) }
                free(names)
            }
        }
        return .success(
            (0..<Int(count)).map { index in
                let name = names?[index].map { String(cString: $0) } ?? "unknown"
                return ListenedSocket(
                    descriptor: FileDescriptor(rawValue: SD_LISTEN_FDS_START + CInt(index)),
                    name: name
                )
            }
        )
    }
}
