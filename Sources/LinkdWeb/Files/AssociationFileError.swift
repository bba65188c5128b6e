import LinkdFormats

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

extension AssociationFileError {
    /// The JSON of an association file's `bytes`, at most `limit` of them: the prologue both readers share.
    ///
    /// - Throws: ``AssociationFileError`` at `$` for a file over the limit or one that is not JSON.
    static func json(of bytes: [UInt8], limit: Int) throws(AssociationFileError) -> JSONValue {
        guard bytes.count <= limit else {
            throw AssociationFileError("$", "the file holds \(bytes.count) bytes, more than \(limit)")
        }
        do throws(JSONValue.ParseError) {
            return try JSONValue.parse(bytes)
        } catch {
            throw AssociationFileError("$", "not JSON: \(error.problem) at byte \(error.offset)")
        }
    }

    /// The strings of `value`, which must be an array of strings (`description` says so when it is not).
    static func strings(_ value: JSONValue, at path: String) throws(AssociationFileError) -> [String] {
        guard let elements = value.arrayElements else {
            throw AssociationFileError(path, "expected an array of strings")
        }
        let strings = elements.compactMap(\.stringValue)
        guard strings.count == elements.count else { throw AssociationFileError(path, "expected an array of strings") }
        return strings
    }
}
