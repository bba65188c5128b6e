/// A problem in a config file: the file, the JSON path, and what is wrong.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// The JSON path (`$.links[2].format`); `$` for the whole file.
    public var path: String
    /// What is wrong, one short clause.
    public var problem: String

    /// Creates a config error.
    public init(file: String, path: String, problem: String) {
        self.file = file
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(file): \(path): \(problem)" }
}
