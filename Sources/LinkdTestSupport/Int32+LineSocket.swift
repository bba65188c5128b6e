import Glibc

extension Int32 {
    /// Sends `text` on this socket descriptor with one `send(2)` (`MSG_NOSIGNAL`: a closed peer raises no SIGPIPE);
    /// errors and short writes are ignored, a test sees them in the answer it reads next.
    package func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(self, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads one line from this socket descriptor, waiting up to `timeout` for each byte (`SO_RCVTIMEO`).
    ///
    /// - Returns: the line without its LF; what came before the end of the stream or the timeout; `nil` when
    ///   nothing did.
    package func readLine(timeout: Duration = .seconds(10)) -> String? {
        let (seconds, attoseconds) = timeout.components
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(self, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(self, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }
}
