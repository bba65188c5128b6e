import Glibc

/// A stream socket at a path that listens and never accepts: what a frozen service looks like from outside (its
/// socket takes connections, and nothing ever reads or answers them). Closed when the value goes.
package final class SilentListener: Sendable {
    /// The socket's path.
    package let path: String
    private let descriptor: Int32

    /// Binds and listens at `path`.
    ///
    /// - Throws: ``HarnessError/cannotListen(path:)`` when it cannot.
    package init(at path: String) throws(HarnessError) {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 16) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw .cannotListen(path: path)
        }
    }

    deinit {
        close(descriptor)
    }
}
