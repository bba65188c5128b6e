import Glibc

extension FileDescriptor {
    /// The process's standard input.
    package static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)

    /// Reads what is available, up to `capacity` bytes, waiting for it (`read(2)`, retried on EINTR).
    ///
    /// - Returns: the bytes, empty at the end of the stream; or the error (``Errno/wouldBlock`` when the descriptor
    ///   is non-blocking and nothing waits to be read).
    package func readSome(capacity: Int = 65_536) -> Result<[UInt8], Errno> {
        var buffer = [UInt8](repeating: 0, count: capacity)
        let result = retryingOnInterrupt { buffer.withUnsafeMutableBytes { read(rawValue, $0.baseAddress, $0.count) } }
        return result.map { Array(buffer[0..<$0]) }
    }

    /// Reads one line byte by byte, so that nothing after its LF is consumed.
    ///
    /// - Returns: the line without its LF; what came before the end of the stream; `nil` when nothing did.
    package func readLine() -> [UInt8]? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while case .success(1) = retryingOnInterrupt({ read(rawValue, &byte, 1) }) {
            if byte == UInt8(ascii: "\n") { return line }
            line.append(byte)
        }
        return line.isEmpty ? nil : line
    }

    /// Whether the descriptor is a terminal (`isatty(3)`).
    package var isTerminal: Bool { isatty(rawValue) == 1 }

    /// Runs `body` with the terminal's echo off (`tcsetattr(3)`), restoring it afterwards; on a descriptor that is
    /// no terminal, just runs `body`.
    package func withoutEcho<Result>(_ body: () -> Result) -> Result {
        var saved = termios()
        guard tcgetattr(rawValue, &saved) == 0 else { return body() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(rawValue, TCSAFLUSH, &quiet)
        defer { tcsetattr(rawValue, TCSAFLUSH, &saved) }
        return body()
    }
}

extension FileSystem {
    /// The first `limit` bytes of a small file (a spool entry, `/proc/self/stat`, whose size the file system does
    /// not tell); `nil` when it cannot be opened or read, or is a symbolic link (unless `followingLinks`). A FIFO is
    /// opened without waiting for a writer and read as what it holds (usually nothing).
    package static func contents(of path: String, limit: Int = 65_536, followingLinks: Bool = false) -> [UInt8]? {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW)
        guard case .success(let fd) = retryingOnInterrupt({ open(path, flags) }) else { return nil }
        let descriptor = FileDescriptor(rawValue: fd)
        defer { descriptor.close() }
        var contents: [UInt8] = []
        while contents.count < limit {
            switch descriptor.readSome(capacity: min(65_536, limit - contents.count)) {
            case .success(let chunk) where chunk.isEmpty: return contents
            case .success(let chunk): contents += chunk
            case .failure(.wouldBlock): return contents  // a FIFO with no writer, or nothing written yet
            case .failure: return nil
            }
        }
        return contents
    }
}
