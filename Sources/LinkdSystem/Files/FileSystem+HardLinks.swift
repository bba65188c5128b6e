import Glibc

extension FileSystem {
    /// Gives the file `existing` the further name `path` (`link(2)`), which never replaces a file already at `path`;
    /// `false` when it could not (most often: `path` exists).
    package static func addName(_ path: String, to existing: String) -> Bool {
        if case .success = retryingOnInterrupt({ link(existing, path) }) { return true }
        return false
    }
}
