import CSystemd
import Glibc

/// Who is at the other end of a connected AF_UNIX socket (`SO_PEERCRED`).
package struct PeerCredentials: Sendable, Hashable {
    package var pid: Int32
    package var uid: UInt32
    package var gid: UInt32

    /// The credentials of `socket`'s peer, read before anything is read from it.
    ///
    /// - Throws: ``SystemError/peerCredentialsFailed(errno:)``.
    package static func of(_ socket: FileDescriptor) throws(SystemError) -> PeerCredentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
        let result = linkd_peer_credentials(socket.rawValue, &pid, &uid, &gid)
        guard result == 0 else { throw .peerCredentialsFailed(errno: Errno(rawValue: -result)) }
        return PeerCredentials(pid: pid, uid: uid, gid: gid)
    }
}
