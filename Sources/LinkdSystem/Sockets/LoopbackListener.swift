import CSystemd
import Glibc

/// A TCP listening socket on 127.0.0.1 with a port the kernel picks, accepted from with blocking calls: for the
/// test doubles' HTTP servers, which serve each connection on a thread of its own.
package final class LoopbackListener: Sendable {
    /// The port it listens on.
    package let port: UInt16
    private let descriptor: FileDescriptor

    /// Listens on `127.0.0.1:<a free port>`.
    ///
    /// - Throws: ``SystemError/systemCall(operation:errno:)`` when the socket cannot be bound.
    package init() throws(SystemError) {
        let fd: CInt
        switch retryingOnInterrupt({ socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }) {
        case .success(let value): fd = value
        case .failure(let error): throw .systemCall(operation: "create a socket", errno: error)
        }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let error = Errno.current
            _ = Glibc.close(fd)
            throw .systemCall(operation: "listen on 127.0.0.1", errno: error)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// The next connection, waiting for it on the calling thread; `nil` once ``close()`` has been called.
    package func nextConnection() -> FileDescriptor? {
        switch retryingOnInterrupt({ linkd_accept(descriptor.rawValue, 0) }) {
        case .success(let fd): FileDescriptor(rawValue: fd)
        case .failure: nil
        }
    }

    /// Stops listening; a thread waiting in ``nextConnection()`` returns `nil`.
    package func close() {
        _ = shutdown(descriptor.rawValue, Int32(SHUT_RDWR))
        descriptor.close()
    }
}

extension FileDescriptor {
    /// Sends all of `bytes` on a connected socket, waiting for room (`send(2)` with `MSG_NOSIGNAL`).
    ///
    /// - Returns: whether all of it was sent (`false` when the peer went away).
    package func sendAll(_ bytes: some Collection<UInt8>) -> Bool {
        let bytes = Array(bytes)
        var offset = 0
        while offset < bytes.count {
            let result = retryingOnInterrupt {
                bytes[offset...].withUnsafeBytes { send(rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            guard case .success(let count) = result, count > 0 else { return false }
            offset += count
        }
        return true
    }
}
