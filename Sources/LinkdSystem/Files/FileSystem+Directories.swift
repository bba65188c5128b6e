import Glibc

extension FileSystem {
    /// Creates the folder `path` and its missing parents with `mode` (narrowed by the umask) (`mkdir(2)`); folders
    /// that exist keep their mode.
    ///
    /// - Throws: ``SystemError/file(operation:path:errno:)`` naming the folder that could not be made.
    package static func makeDirectories(_ path: String, mode: UInt32 = 0o755) throws(SystemError) {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if case .failure(let error) = retryingOnInterrupt({ mkdir(prefix, mode) }), error != .exists {
                throw .file(operation: "create", path: prefix, errno: error)
            }
        }
    }
}
