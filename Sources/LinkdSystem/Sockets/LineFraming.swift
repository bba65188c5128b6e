/// Splits a byte stream into lines of at most ``limit`` bytes, without reading anything itself: bytes go in with
/// ``append(_:)``, lines come out of ``nextLine()``.
///
/// A line longer than the limit is cut: its first ``limit`` bytes come out as a line marked ``Line/isCut``, and the
/// rest of it, up to and including its LF, is skipped as it arrives, never kept. So the bytes held at once stay
/// within the limit plus what one ``append(_:)`` brings, whatever the stream holds, and every call makes progress.
package struct LineFraming: Sendable {
    /// A line, without its LF.
    package struct Line: Equatable, Sendable {
        /// The line's bytes: all of them, or the first ``LineFraming/limit`` of a longer line.
        package var bytes: [UInt8]
        /// Whether the line was longer than the limit, so that ``bytes`` holds only its start.
        package var isCut: Bool

        /// A line of `bytes`, cut or whole.
        package init(_ bytes: [UInt8], isCut: Bool = false) {
            self.bytes = bytes
            self.isCut = isCut
        }
    }

    /// The longest line, in bytes without its LF.
    package let limit: Int
    /// Bytes not yet handed out as lines, from ``start``.
    private var pending: [UInt8] = []
    /// Where the unread part of ``pending`` starts (what is before it was handed out).
    private var start = 0
    /// Whether the rest of a cut line is still arriving: bytes are dropped up to its LF.
    private var isSkipping = false

    /// Frames lines of at most `limit` bytes (at least 1).
    package init(limit: Int) {
        precondition(limit > 0, "a line limit of at least one byte")
        self.limit = limit
    }

    /// Takes the next bytes of the stream.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        var incoming = bytes[...]
        if isSkipping {
            guard let newline = incoming.firstIndex(of: UInt8(ascii: "\n")) else { return }
            incoming = incoming[incoming.index(after: newline)...]
            isSkipping = false
        }
        if start > 0 {
            pending.removeSubrange(..<start)
            start = 0
        }
        pending.append(contentsOf: incoming)
    }

    /// The next line the bytes taken so far complete, or one cut at the limit; `nil` when more bytes are needed.
    package mutating func nextLine() -> Line? {
        let unread = pending[start...]
        let end = unread.prefix(limit + 1).firstIndex(of: UInt8(ascii: "\n"))
        if let end {
            defer { start = end + 1 }
            return Line(Array(pending[start..<end]))
        }
        guard unread.count > limit else { return nil }
        let line = Line(Array(pending[start..<start + limit]), isCut: true)
        // The rest of the cut line: what already came is dropped up to its LF, and what has not is skipped on arrival.
        let rest = pending[(start + limit)...]
        if let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            start = newline + 1
        } else {
            pending.removeAll(keepingCapacity: true)
            start = 0
            isSkipping = true
        }
        return line
    }

    /// At the end of the stream: what is left of a last line without LF, or `nil` when nothing is.
    package mutating func finish() -> Line? {
        if let line = nextLine() { return line }
        defer {
            pending.removeAll()
            start = 0
            isSkipping = false
        }
        guard start < pending.count else { return nil }
        return Line(Array(pending[start...]))
    }
}
