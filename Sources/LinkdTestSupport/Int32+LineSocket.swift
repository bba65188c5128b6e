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

extension Int32 {
    /// Waits, blocking, until the peer has closed this connection (a read sees the end of the stream) or `timeout`
    /// passes: the close is an event (`poll(2)` sees the descriptor readable).
    ///
    /// - Returns: whether the peer closed it with nothing left unread.
    package func waitForPeerClose(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (seconds, attoseconds) = (deadline - .now).components
            let milliseconds = Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000)
            var entry = pollfd(fd: self, events: Int16(POLLIN), revents: 0)
            guard milliseconds > 0, poll(&entry, 1, milliseconds) > 0 else { return false }
            var byte: UInt8 = 0
            let count = recv(self, &byte, 1, Int32(MSG_DONTWAIT))
            if count == 0 { return true }
            if count < 0 && errno != EAGAIN && errno != EINTR { return errno == ECONNRESET }
            if count > 0 { return false }
        }
    }
}
