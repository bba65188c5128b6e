import Glibc

/// Folders and files linkd keeps private to its user.
package enum FileSystem {
    /// Creates `path` and its missing parents with mode 0700 (`mkdir(2)`); `path` itself gets 0700 when it existed.
    ///
    /// - Throws: ``SystemdError/systemCall(operation:errno:)`` naming the folder.
    package static func makePrivateDirectory(_ path: String) throws(SystemdError) {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if case .failure(let error) = retryingOnInterrupt({ mkdir(prefix, 0o700) }), error != .exists {
                throw .systemCall(operation: "create '\(prefix)'", errno: error.rawValue)
            }
        }
        if case .failure(let error) = retryingOnInterrupt({ chmod(path, 0o700) }) {
            throw .systemCall(operation: "make '\(path)' private", errno: error.rawValue)
        }
    }
}
