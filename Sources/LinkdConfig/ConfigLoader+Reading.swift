import FoundationEssentials
import LinkdSystem

extension ConfigLoader {
    /// The largest config file read: 1 MiB, far more than any app needs.
    package static let sizeLimit = 1 << 20

    /// The bytes of the config file at `path`, read only when it is, after symlinks, a regular file of at most
    /// ``sizeLimit`` bytes (so a FIFO, a device or a huge file is never read) and a ``TrustedPath``.
    static func contents(of path: String) -> Swift.Result<[UInt8], ConfigError> {
        func problem(_ text: String) -> Swift.Result<[UInt8], ConfigError> {
            .failure(ConfigError(file: path, path: "$", problem: text))
        }
        let status: FileStatus
        switch FileSystem.status(of: path) {
        case .success(let found): status = found
        case .failure(.tooManyLinks): return problem("cannot be read: a symlink loop")
        case .failure(.noEntry): return problem("cannot be read: a symlink to nothing")
        case .failure(let error): return problem("cannot be read: " + error.description.lowercased())
        }
        guard status.kind == .regular else { return problem("cannot be read: not a regular file") }
        guard status.size <= sizeLimit else { return problem("cannot be read: larger than 1 MiB") }
        do throws(TrustedPath.Failure) {
            _ = try TrustedPath(checking: path)
        } catch {
            return problem("not trusted: \(error)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return problem(
                FileManager.default.isReadableFile(atPath: path)
                    ? "cannot be read" : "cannot be read: permission denied"
            )
        }
        guard data.count <= sizeLimit else { return problem("cannot be read: larger than 1 MiB") }
        return .success(Array(data))
    }
}
