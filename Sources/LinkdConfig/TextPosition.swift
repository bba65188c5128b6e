/// A place in a config file: a line and a column, both counted from 1.
///
/// A column counts characters (UTF-8 sequences), not bytes; a byte that is not UTF-8 counts as one character.
package struct TextPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, from 1.
    package var line: Int
    /// The column, from 1.
    package var column: Int

    /// A position at `line` and `column`.
    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The start of a file, where a problem that has no place of its own (an unreadable file) is put.
    package static let start = TextPosition(line: 1, column: 1)

    /// Orders positions as they stand in a file: by line, then column.
    package static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `LINE:COLUMN`.
    package var description: String { "\(line):\(column)" }

    /// The position `byte` steps onto: past a line feed, the next line's start; past the first byte of a
    /// character, the next column; a UTF-8 continuation byte moves nothing.
    mutating func advance(over byte: UInt8) {
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    /// The position of byte `offset` in `bytes`.
    static func of(offset: Int, in bytes: [UInt8]) -> TextPosition {
        var position = TextPosition.start
        for byte in bytes.prefix(offset) { position.advance(over: byte) }
        return position
    }
}
