/// Why an association file cannot be read: the part at fault, by JSON path, and what is wrong with it.
package struct AssociationFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the part at fault (`$`, `$.applinks.details[0].components[2]./`).
    package let path: String
    /// What is wrong with it.
    package let problem: String

    package init(_ path: String, _ problem: String) {
        self.path = path
        self.problem = problem
    }

    package var description: String { "\(path): \(problem)" }
}
