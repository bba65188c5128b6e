import CSystemd
import Glibc

/// A datagram socket a started daemon reports to, the way systemd's `NOTIFY_SOCKET` works: the child is given the
/// path, `sd_notify(3)` sends `READY=1` there once it listens, and the starter waits for that event instead of
/// polling for the daemon's socket.
package struct ReadinessListener: Sendable {
    /// The socket's path, for the child's `NOTIFY_SOCKET`.
    package let path: String
    private let socket: AsyncSocket

    /// Binds a datagram socket at `path` (mode 0600 under the caller's private folder); a stale file is replaced.
    ///
    /// - Throws: ``SystemError`` when the socket cannot be created or bound.
    package init(path: String) throws(SystemError) {
        let fd: CInt
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        switch retryingOnInterrupt({ Glibc.socket(AF_UNIX, type, 0) }) {
        case .success(let value): fd = value
        case .failure(let error): throw .systemCall(operation: "create a socket", errno: error)
        }
        _ = unlink(path)
        do throws(SystemError) {
            try UnixSocket.withAddress(path) { address, length throws(SystemError) in
                if case .failure(let error) = retryingOnInterrupt({ bind(fd, address, length) }) {
                    throw .file(operation: "bind", path: path, errno: error)
                }
            }
            socket = try AsyncSocket(FileDescriptor(rawValue: fd))
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
        self.path = path
    }

    /// Waits until a datagram says `READY=1`, or `deadline` passes.
    ///
    /// - Returns: whether the child reported ready.
    package func waitForReady(deadline: ContinuousClock.Instant) async -> Bool {
        var buffer: [UInt8] = []
        while let count = try? await socket.read(into: &buffer, capacity: 4_096, deadline: deadline), count > 0 {
            let lines = buffer[0..<count].split(separator: UInt8(ascii: "\n"))
            if lines.contains(where: { Array($0) == Array("READY=1".utf8) }) { return true }
        }
        return false
    }

    /// Closes the socket and removes its file.
    package func close() {
        socket.close()
        _ = unlink(path)
    }
}
