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
    /// Whether it is a warning: worth knowing, and no problem (`linkd check` still exits 0).
    package var isWarning: Bool

    /// Creates a config error (a warning when `isWarning`).
    package init(file: String, position: TextPosition = .start, path: String, problem: String, isWarning: Bool = false)
    {
        self.file = file
        self.position = position
        self.path = path
        self.problem = problem
        self.isWarning = isWarning
    }

    /// The line of ``position``.
    package var line: Int { position.line }
    /// The column of ``position``.
    package var column: Int { position.column }

    /// `FILE:LINE:COLUMN: JSON-PATH: problem` (`…: warning: problem` for a warning), the way compilers place their
    /// messages.
    package var description: String { "\(file):\(position): \(path): \(isWarning ? "warning: " : "")\(problem)" }
}
