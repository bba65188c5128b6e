import Glibc

/// A connected stream socket (or pipe) read and written from async code: non-blocking, through the ``Reactor``
/// (the daemon, which serves many at once), or blocking the calling thread until its deadline (``blocking(_:)``: a
/// command-line client with one conversation, which then spares each answer the reactor's hand-over).
package struct AsyncSocket: Sendable {
    /// The descriptor.
    package let descriptor: FileDescriptor
    /// `nil` for a blocking socket.
    private let reactor: Reactor?

    /// Wraps `descriptor`, making it non-blocking and close-on-exec.
    package init(_ descriptor: FileDescriptor, reactor: Reactor = .shared) throws(SystemError) {
        try descriptor.makeNonBlockingAndCloseOnExec()
        self.descriptor = descriptor
        self.reactor = reactor
    }

    private init(blocking descriptor: FileDescriptor) {
        self.descriptor = descriptor
        reactor = nil
    }

    /// Wraps a blocking `descriptor`: each read or write waits on the calling thread, for at most its deadline
    /// (`SO_RCVTIMEO`/`SO_SNDTIMEO`, set before the call).
    package static func blocking(_ descriptor: FileDescriptor) -> AsyncSocket {
        AsyncSocket(blocking: descriptor)
    }

    /// Waits for `descriptor` to be ready through the reactor; for a blocking socket, sets the time limit of the
    /// next blocking call instead (a call that finds it passed throws ``ReactorError/timedOut``).
    private func wait(writable: Bool, deadline: ContinuousClock.Instant?) async throws {
        guard let reactor else { throw ReactorError.timedOut }  // a blocking call gave up at its deadline
        try await reactor.wait(for: descriptor, writable: writable, deadline: deadline)
    }

    /// For a blocking socket: the time limit of the next call, from `deadline` (none: wait as long as it takes).
    private func limit(_ option: Int32, until deadline: ContinuousClock.Instant?) throws {
        guard reactor == nil else { return }
        var time = timeval()
        if let deadline {
            let remaining = deadline - .now
            guard remaining > .zero else { throw ReactorError.timedOut }
            let (seconds, attoseconds) = remaining.components
            time = timeval(tv_sec: Int(seconds), tv_usec: max(1, Int(attoseconds / 1_000_000_000_000)))
        }
        _ = setsockopt(descriptor.rawValue, SOL_SOCKET, option, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads what is available into `buffer` (replacing its contents), waiting until `deadline` for something.
    ///
    /// - Returns: the number of bytes read; 0 at the end of the stream.
    /// - Throws: ``ReactorError/timedOut``, `CancellationError`, or ``SystemError`` for a read error.
    package func read(
        into buffer: inout [UInt8],
        capacity: Int = 65_536,
        deadline: ContinuousClock.Instant?
    ) async throws -> Int {
        if buffer.count != capacity { buffer = [UInt8](repeating: 0, count: capacity) }
        try limit(SO_RCVTIMEO, until: deadline)
        while true {
            let result = retryingOnInterrupt {
                buffer.withUnsafeMutableBytes { Glibc.read(descriptor.rawValue, $0.baseAddress, $0.count) }
            }
            switch result {
            case .success(let count): return count
            case .failure(.wouldBlock): try await wait(writable: false, deadline: deadline)
            case .failure(.connectionReset): return 0
            case .failure(let error): throw SystemError.systemCall(operation: "read from a connection", errno: error)
            }
        }
    }

    /// Writes all of `bytes`, waiting for room until `deadline`.
    ///
    /// - Throws: ``ReactorError/timedOut``, `CancellationError`, or ``SystemError`` (EPIPE when the peer is gone).
    package func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant?) async throws {
        try limit(SO_SNDTIMEO, until: deadline)
        var offset = 0
        while offset < bytes.count {
            var result = retryingOnInterrupt {
                bytes[offset...].withUnsafeBytes {
                    Glibc.send(descriptor.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
            }
            if case .failure(let error) = result, error.rawValue == ENOTSOCK {
                // A pipe (an exec program's standard input): the daemon ignores SIGPIPE, so EPIPE comes back instead.
                result = retryingOnInterrupt {
                    bytes[offset...].withUnsafeBytes { Glibc.write(descriptor.rawValue, $0.baseAddress, $0.count) }
                }
            }
            switch result {
            case .success(let count): offset += count
            case .failure(.wouldBlock): try await wait(writable: true, deadline: deadline)
            case .failure(let error): throw SystemError.systemCall(operation: "write to a connection", errno: error)
            }
        }
    }

    /// Stops watching and closes the descriptor.
    package func close() {
        reactor?.forget(descriptor)
        descriptor.close()
    }
}

/// Reads a connection's bytes as lines of at most a limit of bytes (see ``LineFraming``: a longer line comes out cut,
/// marked so, and the rest of it is skipped).
package struct LineReader: Sendable {
    /// A line, whole or cut.
    package typealias Line = LineFraming.Line

    private let socket: AsyncSocket
    private var framing: LineFraming
    private var chunk: [UInt8] = []

    /// Reads lines from `socket`, each at most `limit` bytes without its LF.
    package init(_ socket: AsyncSocket, limit: Int) {
        self.socket = socket
        framing = LineFraming(limit: limit)
    }

    /// The next line without its LF (cut at the limit when it is longer: ``LineFraming/Line/isCut``), or `nil` at
    /// the end of the stream (a last line without LF is returned first).
    ///
    /// - Throws: ``ReactorError/timedOut`` when nothing completes a line by `deadline`, `CancellationError` when the
    ///   task is cancelled (checked before every read: a writer that never pauses gives the reactor no wait to end),
    ///   or the socket's errors.
    package mutating func nextLine(deadline: ContinuousClock.Instant?) async throws -> Line? {
        while true {
            if let line = framing.nextLine() { return line }
            try Task.checkCancellation()
            let count = try await socket.read(into: &chunk, deadline: deadline)
            if count == 0 { return framing.finish() }
            framing.append(chunk[0..<count])
        }
    }
}

extension AsyncSocket {
    /// A second descriptor for the same connection (`dup(2)`), non-blocking, so that a writer can wait on the
    /// reactor while a reader waits on the first; the caller closes it.
    ///
    /// - Throws: ``SystemError/systemCall(operation:errno:)`` when no descriptor is left.
    package func duplicate() throws(SystemError) -> AsyncSocket {
        switch retryingOnInterrupt({ dup(descriptor.rawValue) }) {
        case .success(let fd):
            let copy = FileDescriptor(rawValue: fd)
            guard let reactor else { return .blocking(copy) }
            return try AsyncSocket(copy, reactor: reactor)
        case .failure(let error): throw .systemCall(operation: "duplicate a connection", errno: error)
        }
    }
}

extension AsyncSocket {
    /// Whether the peer still has its end open: something is waiting to be read, or nothing is and the stream has
    /// not ended (`recv(2)` with `MSG_PEEK`, without waiting).
    package var isPeerConnected: Bool {
        var byte: UInt8 = 0
        let result = retryingOnInterrupt { recv(descriptor.rawValue, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) }
        switch result {
        case .success(let count): return count > 0
        case .failure(let error): return error == .wouldBlock
        }
    }
}
