import Glibc

extension FileSystem {
    /// The path a write to `path` lands on: while `path` is a symbolic link, its target (`readlink(2)`), taken
    /// relative to the link's folder when it is relative. The target need not exist. A path that is not a link is
    /// returned as it is; links in its folders are left to the kernel.
    ///
    /// - Throws: ``SystemError/file(operation:path:errno:)`` with `ELOOP` after 40 links, or the error of a link
    ///   that cannot be read.
    package static func resolvingLinks(_ path: String) throws(SystemError) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw .file(operation: "read the link", path: current, errno: .current) }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !target.hasPrefix("/"), let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + target
            } else {
                current = target
            }
        }
        throw .file(operation: "follow the links of", path: path, errno: Errno(rawValue: ELOOP))
    }
}
