import Glibc

/// Folders and files linkd keeps private to its user.
package enum FileSystem {
    /// Creates `path` and its missing parents with mode 0700 (`mkdir(2)`); `path` itself gets 0700 when it existed.
    ///
    /// - Throws: ``SystemError/file(operation:path:errno:)`` naming the folder.
    package static func makePrivateDirectory(_ path: String) throws(SystemError) {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if case .failure(let error) = retryingOnInterrupt({ mkdir(prefix, 0o700) }), error != .exists {
                throw .file(operation: "create", path: prefix, errno: error)
            }
        }
        if case .failure(let error) = retryingOnInterrupt({ chmod(path, 0o700) }) {
            throw .file(operation: "make private", path: path, errno: error)
        }
    }
}

extension FileSystem {
    /// Opens `path` for appending, creating it with `mode` (0600 by default) when missing; close-on-exec.
    ///
    /// - Throws: ``SystemError/file(operation:path:errno:)`` naming the file.
    package static func openForAppending(_ path: String, mode: UInt32 = 0o600) throws(SystemError) -> FileDescriptor {
        switch retryingOnInterrupt({ open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode) }) {
        case .success(let fd): return FileDescriptor(rawValue: fd)
        case .failure(let error): throw .file(operation: "open", path: path, errno: error)
        }
    }

    /// This program's absolute path (`/proc/self/exe`), `nil` when it cannot be read.
    package static var executablePath: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension FileSystem {
    /// Opens `path` for reading; close-on-exec.
    ///
    /// - Throws: ``SystemError/file(operation:path:errno:)`` naming the file.
    package static func openForReading(_ path: String) throws(SystemError) -> FileDescriptor {
        switch retryingOnInterrupt({ open(path, O_RDONLY | O_CLOEXEC) }) {
        case .success(let fd): return FileDescriptor(rawValue: fd)
        case .failure(let error): throw .file(operation: "open", path: path, errno: error)
        }
    }
}
