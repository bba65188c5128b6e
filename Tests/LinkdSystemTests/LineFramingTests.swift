import LinkdSystem
import Testing

/// Lines framed from bytes that arrive in pieces: whole lines as they are, longer ones cut at the limit with the rest
/// skipped up to their LF, and nothing kept beyond the limit and one piece.
@Suite struct LineFramingTests {
    /// Feeds `pieces` one by one, taking every line after each, and the last one at the end.
    private func lines(_ pieces: [[UInt8]], limit: Int) -> [LineFraming.Line] {
        var framing = LineFraming(limit: limit)
        var lines: [LineFraming.Line] = []
        for piece in pieces {
            framing.append(piece)
            while let line = framing.nextLine() { lines.append(line) }
        }
        while let line = framing.finish() { lines.append(line) }
        return lines
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func splitsOnLFAndReturnsAnUnterminatedLastLine() {
        #expect(
            lines([bytes("one\ntw"), bytes("o\n\nthree")], limit: 8)
                == [.init(bytes("one")), .init(bytes("two")), .init([]), .init(bytes("three"))]
        )
    }

    @Test func aLineOfExactlyTheLimitIsWhole() {
        #expect(lines([bytes("abcd\nef\n")], limit: 4) == [.init(bytes("abcd")), .init(bytes("ef"))])
    }

    @Test func aLongerLineIsCutAndItsRestSkippedUpToItsLF() {
        #expect(
            lines([bytes("abcdefgh\nnext\n")], limit: 4)
                == [.init(bytes("abcd"), isCut: true), .init(bytes("next"))]
        )
    }

    @Test func theRestOfACutLineIsSkippedAcrossPieces() {
        let pieces = [bytes("abcdef"), bytes("ghij"), bytes("kl\nnext\n")]
        #expect(lines(pieces, limit: 4) == [.init(bytes("abcd"), isCut: true), .init(bytes("next"))])
    }

    @Test func anUnterminatedLongWriteEndsAsOneCutLine() {
        let pieces = [[UInt8]](repeating: [UInt8](repeating: UInt8(ascii: "A"), count: 1_000), count: 5)
        #expect(
            lines(pieces, limit: 4_096) == [.init([UInt8](repeating: UInt8(ascii: "A"), count: 4_096), isCut: true)]
        )
    }

    /// Ten megabytes without a LF, in 64 KiB pieces: one cut line, and between pieces nothing is held at all.
    @Test func tenMegabytesWithoutLFHoldNothingWhileSkipped() {
        var framing = LineFraming(limit: 4_096)
        let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536)
        var lines: [LineFraming.Line] = []
        for _ in 0..<160 {
            framing.append(piece)
            while let line = framing.nextLine() { lines.append(line) }
        }
        framing.append(bytes("\nlast"))
        while let line = framing.nextLine() { lines.append(line) }
        if let line = framing.finish() { lines.append(line) }
        #expect(lines.count == 2)
        #expect(lines.first?.isCut == true && lines.first?.bytes.count == 4_096)
        #expect(lines.last == .init(bytes("last")))
    }

    @Test func manyShortLinesInOnePieceComeOutInOrder() {
        let text = (0..<10_000).map { "line \($0)\n" }.joined()
        let framed = lines([bytes(text)], limit: 64)
        #expect(framed.count == 10_000)
        #expect(framed.last == .init(bytes("line 9999")))
        #expect(framed.allSatisfy { !$0.isCut })
    }
}
