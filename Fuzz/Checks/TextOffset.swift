import LinkdConfig

extension FuzzTarget {
    /// The byte offset of `position` in `text` (lines split at LF, columns counted in characters' first bytes),
    /// or `nil` when the text has no such position; the end of the text is a position.
    static func offset(of position: TextPosition, in text: [UInt8]) -> Int? {
        var current = TextPosition.start
        for (offset, byte) in text.enumerated() {
            if current == position && byte & 0xC0 != 0x80 { return offset }
            if byte == UInt8(ascii: "\n") {
                current = TextPosition(line: current.line + 1, column: 1)
            } else if byte & 0xC0 != 0x80 {
                current.column += 1
            }
            if current > position { return nil }
        }
        return current == position ? text.count : nil
    }
}
