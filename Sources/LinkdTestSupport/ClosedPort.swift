import Glibc

/// A TCP port on 127.0.0.1 that refuses connections: bound, never listened on, and held until ``close()``, so that
/// no other server can take it meanwhile (a port a server closed can be the next one's).
package final class ClosedPort: Sendable {
    package let port: UInt16
    private let descriptor: Int32

    /// Binds a port the kernel picks.
    ///
    /// - Throws: ``HarnessError/unexpected(what:got:)`` when it cannot.
    package init() throws(HarnessError) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .unexpected(what: "a TCP socket", got: "errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            _ = Glibc.close(fd)
            throw .unexpected(what: "a bound port on 127.0.0.1", got: "errno \(errno)")
        }
        port = UInt16(bigEndian: address.sin_port)
        descriptor = fd
    }

    /// Lets the port go.
    package func close() { _ = Glibc.close(descriptor) }
}
