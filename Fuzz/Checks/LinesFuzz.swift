import LinkdSystem

extension FuzzTarget {
    /// ``LineFraming`` on any stream, fed in pieces: there is one line for each LF-separated segment of the stream
    /// (a last segment left empty by a trailing LF is none); a line has at most the limit's bytes and no LF; a line
    /// not cut is its segment, a cut one the first `limit` bytes of a longer segment; and the lines are the same
    /// however the stream is split into pieces, and whether or not every line is taken before the next piece.
    ///
    /// An input is one byte for the limit (1–64), one for the pieces (bits 0–4: the longest piece, 1–32; bits 5–7:
    /// the seed of their sizes, and bit 7 also whether one line only is taken after each piece), then the stream.
    package static let lines = FuzzTarget("lines") { bytes in
        guard bytes.count >= 2 else { return }
        let limit = 1 + Int(bytes[0]) % 64
        let longestPiece = 1 + Int(bytes[1] & 0x1F)
        let takesOneLine = bytes[1] & 0x80 != 0
        let stream = Array(bytes[2...])

        var segments = stream.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if segments.last?.isEmpty == true { segments.removeLast() }
        let whole = framedLines(stream, limit: limit, pieces: [stream.count], takesOneLine: false)
        require(whole.count == segments.count, "\(whole.count) lines for \(segments.count) segments")
        for (line, segment) in zip(whole, segments) {
            require(line.bytes.count <= limit, "a line over the limit")
            require(!line.bytes.contains(UInt8(ascii: "\n")), "a line that holds an LF")
            if line.isCut {
                require(segment.count > limit, "a line cut that fits the limit")
                require(line.bytes[...] == segment.prefix(limit), "a cut line is not its segment's start")
            } else {
                require(line.bytes[...] == segment, "a line is not its segment")
            }
        }

        var seed = bytes[1] >> 5
        var pieces: [Int] = []
        var fed = 0
        while fed < stream.count {
            seed = seed &* 37 &+ 11
            let size = min(1 + Int(seed) % longestPiece, stream.count - fed)
            pieces.append(size)
            fed += size
        }
        let split = framedLines(stream, limit: limit, pieces: pieces, takesOneLine: takesOneLine)
        require(split == whole, "the lines depend on how the stream is split")
    }

    /// The lines ``LineFraming`` frames from `stream` at `limit`, fed in pieces of the sizes of `pieces`, taking
    /// every line after each piece (or only one, when `takesOneLine`), then the rest at the end of the stream.
    private static func framedLines(
        _ stream: [UInt8],
        limit: Int,
        pieces: [Int],
        takesOneLine: Bool
    ) -> [LineFraming.Line] {
        var framing = LineFraming(limit: limit)
        var lines: [LineFraming.Line] = []
        var start = 0
        for size in pieces {
            framing.append(stream[start..<start + size])
            start += size
            while let line = framing.nextLine() {
                lines.append(line)
                if takesOneLine { break }
            }
        }
        while let line = framing.finish() { lines.append(line) }
        return lines
    }
}
