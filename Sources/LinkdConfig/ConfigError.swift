/// A problem in a config file: the file, the JSON path, and what is wrong.
package struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    package var file: String
    /// The JSON path (`$.links[2].format`); `$` for the whole file.
    package var path: String
    /// What is wrong, one short clause.
    package var problem: String

    /// Creates a config error.
    package init(file: String, path: String, problem: String) {
        self.file = file
        self.path = path
        self.problem = problem
    }

    package var description: String { "\(file): \(path): \(problem)" }
}
