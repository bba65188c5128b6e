/// A problem in a config file: the file, the line and column, the JSON path, and what is wrong.
package struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    package var file: String
    /// Where the JSON value the problem is about starts; the file's start when no place applies (an unreadable file).
    package var position: TextPosition
    /// The JSON path (`$.links[2].format`); `$` for the whole file.
    package var path: String
    /// What is wrong, one short clause.
    package var problem: String

    /// Creates a config error.
    package init(file: String, position: TextPosition = .start, path: String, problem: String) {
        self.file = file
        self.position = position
        self.path = path
        self.problem = problem
    }

    /// The line of ``position``.
    package var line: Int { position.line }
    /// The column of ``position``.
    package var column: Int { position.column }

    /// `FILE:LINE:COLUMN: JSON-PATH: problem`, the way compilers place their messages.
    package var description: String { "\(file):\(position): \(path): \(problem)" }
}
