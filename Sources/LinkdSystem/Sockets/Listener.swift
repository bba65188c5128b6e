import CSystemd
import FoundationEssentials
import Glibc

/// The daemon's listening socket: passed by systemd, or bound by the daemon itself.
package struct Listener: Sendable {
    /// Why the daemon does not listen.
    package enum Failure: Error, Sendable, CustomStringConvertible {
        /// Another daemon holds the start lock or answers on the socket: this one has nothing to do.
        case anotherDaemonIsRunning
        /// A system call failed.
        case system(SystemError)
        /// A descriptor systemd passed is not a listening AF_UNIX stream socket.
        case notAListeningSocket(String)

        package var description: String {
            switch self {
            case .anotherDaemonIsRunning: "another linkd daemon is already running"
            case .system(let error): error.description
            case .notAListeningSocket(let name):
                "the socket '\(name)' passed by systemd is not a listening stream socket"
            }
        }
    }

    /// The listening descriptor.
    package let descriptor: FileDescriptor
    /// The socket file the daemon created and removes on exit; `nil` for systemd's.
    package let ownedPath: String?
    private let lockDescriptor: FileDescriptor?

    /// Adopts the first socket systemd passed, after checking it is a listening stream socket.
    package static func adopt(_ socket: ListenedSocket) throws(Failure) -> Listener {
        var type: CInt = 0
        var listening: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        let isStream =
            getsockopt(socket.descriptor.rawValue, SOL_SOCKET, SO_TYPE, &type, &length) == 0
            && type == CInt(SOCK_STREAM.rawValue)
        length = socklen_t(MemoryLayout<CInt>.size)
        let isListening =
            getsockopt(socket.descriptor.rawValue, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0
            && listening == 1
        guard isStream && isListening else { throw .notAListeningSocket(socket.name) }
        do {
            try socket.descriptor.makeNonBlockingAndCloseOnExec()
        } catch {
            throw .system(error)
        }
        return Listener(descriptor: socket.descriptor, ownedPath: nil, lockDescriptor: nil)
    }

    /// Binds `path` (0600) after taking the start lock at `lockPath`; a stale socket file is replaced. The socket file
    /// is made under umask 0177, which is the whole process's for that moment: the daemon binds before it starts any
    /// other work.
    ///
    /// - Throws: ``Failure/anotherDaemonIsRunning`` when another daemon holds the lock or answers on `path`.
    package static func bind(path: String, lockPath: String) throws(Failure) -> Listener {
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw .system(.systemCall(operation: "open the daemon lock", errno: .current)) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            Glibc.close(lock)
            throw .anotherDaemonIsRunning
        }
        if access(path, F_OK) == 0 {
            if let probe = try? UnixSocket.connect(path: path) {
                probe.close()
                Glibc.close(lock)
                throw .anotherDaemonIsRunning
            }
            unlink(path)  // stale: nobody answers
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(.systemCall(operation: "create a socket", errno: .current)) }
        let descriptor = FileDescriptor(rawValue: fd)
        let previousMask = umask(0o177)
        defer { umask(previousMask) }
        do throws(SystemError) {
            try UnixSocket.withAddress(path) { address, length throws(SystemError) in
                guard Glibc.bind(fd, address, length) == 0 else {
                    throw .systemCall(operation: "bind '\(path)'", errno: .current)
                }
            }
            guard chmod(path, 0o600) == 0, listen(fd, 512) == 0 else {
                throw .systemCall(operation: "listen on '\(path)'", errno: .current)
            }
            try descriptor.makeNonBlockingAndCloseOnExec()
        } catch {
            descriptor.close()
            Glibc.close(lock)
            throw .system(error)
        }
        return Listener(descriptor: descriptor, ownedPath: path, lockDescriptor: FileDescriptor(rawValue: lock))
    }

    /// The next connection, waiting through the reactor; `nil` when the listener is closed under it.
    package func nextConnection(reactor: Reactor = .shared) async throws -> FileDescriptor {
        while true {
            switch retryingOnInterrupt({ linkd_accept(descriptor.rawValue, 1) }) {
            case .success(let fd): return FileDescriptor(rawValue: fd)
            case .failure(let error) where error.rawValue == ECONNABORTED: continue
            case .failure(.wouldBlock): try await reactor.wait(for: descriptor)
            case .failure(let error) where [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.rawValue):
                // Out of descriptors or memory: back off rather than spin; the backlog keeps the clients.
                try await Task.sleep(for: .milliseconds(50))
            case .failure(let error): throw SystemError.systemCall(operation: "accept a connection", errno: error)
            }
        }
    }

    /// Stops listening: closes the socket and removes the file the daemon created. The start lock stays held, so
    /// that no second daemon starts (and replays the spool) while this one finishes its work.
    package func stopListening(reactor: Reactor = .shared) {
        reactor.forget(descriptor)
        if let ownedPath { unlink(ownedPath) }
        descriptor.close()
    }

    /// Releases the start lock; the last thing a daemon does.
    package func releaseLock() {
        lockDescriptor?.close()
    }
}

/// Client-side AF_UNIX helpers.
package enum UnixSocket {
    /// The longest path a socket can have, in bytes: `sun_path` less its terminating NUL (107 on Linux).
    package static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Calls `body` with a `sockaddr_un` for `path`, and its length: the whole structure for a path, the name alone
    /// for an abstract socket (`@name`, as systemd writes one in `NOTIFY_SOCKET`).
    static func withAddress<Result>(
        _ path: String,
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> Result
    ) throws(SystemError) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        guard bytes.count <= maximumPathLength else {
            throw .systemCall(operation: "use the socket path '\(path)'", errno: .nameTooLong)
        }
        let isAbstract = bytes.first == UInt8(ascii: "@")
        if isAbstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? MemoryLayout<sa_family_t>.size
        let length = isAbstract ? pathOffset + bytes.count : MemoryLayout<sockaddr_un>.size
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                Swift.Result { () throws(SystemError) in try body(address, socklen_t(length)) }
            }
        }
        return try result.get()
    }

    /// Whether the peer of the stream socket `descriptor` has left what was written to it unread: a measure of
    /// the bytes queued for it (`SIOCOUTQ`), 0 once it read them all.
    ///
    /// - Returns: nil when the kernel cannot tell.
    package static func unreadByPeer(_ descriptor: FileDescriptor) -> Int? {
        let count = linkd_unread_by_peer(descriptor.rawValue)
        return count < 0 ? nil : Int(count)
    }

    /// A blocking connection to the socket at `path`.
    ///
    /// - Throws: ``SystemError/systemCall(operation:errno:)`` with ENOENT or ECONNREFUSED when no daemon listens.
    package static func connect(path: String) throws(SystemError) -> FileDescriptor {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .systemCall(operation: "create a socket", errno: .current) }
        do {
            try withAddress(path) { address, length throws(SystemError) in
                guard Glibc.connect(fd, address, length) == 0 else {
                    throw .systemCall(operation: "connect to '\(path)'", errno: .current)
                }
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
        return FileDescriptor(rawValue: fd)
    }
}
