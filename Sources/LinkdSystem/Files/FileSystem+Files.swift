import Glibc

extension FileSystem {
    /// Writes `bytes` to `path` so that a reader sees the old file or the new one, never part of it: a temporary
    /// file beside it, created `O_EXCL | O_NOFOLLOW | O_CLOEXEC` with `mode` from the start (never wider), synced,
    /// then renamed over `path`. The temporary file is removed when any step fails.
    ///
    /// - Throws: ``SystemError/file(operation:path:errno:)`` naming the file (ENOSPC when the disk is full).
    package static func writeAtomically(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o600) throws(SystemError) {
        var generator = SystemRandomNumberGenerator()
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let temporary =
            String(path[..<slash]) + "." + path[slash...] + "." + String(generator.next() as UInt64, radix: 16)
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let descriptor: FileDescriptor
        switch retryingOnInterrupt({ open(temporary, flags, mode) }) {
        case .success(let fd): descriptor = FileDescriptor(rawValue: fd)
        case .failure(let error): throw .file(operation: "create", path: temporary, errno: error)
        }
        var offset = 0
        var failure: Errno?
        while offset < bytes.count && failure == nil {
            switch retryingOnInterrupt({
                bytes[offset...].withUnsafeBytes { write(descriptor.rawValue, $0.baseAddress, $0.count) }
            }) {
            case .success(let count): offset += count
            case .failure(let error): failure = error
            }
        }
        if failure == nil, case .failure(let error) = retryingOnInterrupt({ fsync(descriptor.rawValue) }) {
            failure = error
        }
        descriptor.close()
        if failure == nil, case .failure(let error) = retryingOnInterrupt({ Glibc.rename(temporary, path) }) {
            failure = error
        }
        if let failure {
            _ = unlink(temporary)
            throw .file(operation: "write", path: path, errno: failure)
        }
    }

    /// Renames `path` to `newPath` (`rename(2)`); `false` when it could not (most often: `path` is gone).
    package static func rename(_ path: String, to newPath: String) -> Bool {
        if case .success = retryingOnInterrupt({ Glibc.rename(path, newPath) }) { return true }
        return false
    }

    /// Removes the file `path`; a missing file is not an error.
    ///
    /// - Returns: whether it removed the file (`false` when it was missing or could not be removed).
    @discardableResult
    package static func remove(_ path: String) -> Bool {
        unlink(path) == 0
    }

    /// The names in the folder `path`, without `.` and `..`; none when it cannot be read.
    package static func names(in path: String) -> [String] {
        // The name is read where it lies: a record is only as long as its name (d_reclen), so copying the whole
        // 256-byte d_name out of the last record of readdir's buffer read past its end (AddressSanitizer saw it).
        guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name), let folder = opendir(path) else {
            return []
        }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

extension SystemError {
    /// The error number of the call that failed.
    package var errno: Errno {
        switch self {
        case .listenFailed(let code), .notifyFailed(let code), .journalFailed(let code),
            .peerCredentialsFailed(let code), .spawnFailed(let code), .busFailed(_, let code, _),
            .file(_, _, let code), .systemCall(_, let code):
            code
        case .libsystemdMissing: Errno(rawValue: ELIBACC)
        }
    }
}

extension FileSystem {
    /// Whether `path` is a file this process may execute (`access(2)` with `X_OK`, and not a folder).
    package static func isExecutable(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR && access(path, X_OK) == 0
    }

    /// Whether `program` can be run: a path that ``isExecutable(_:)``, or a name found so in a folder of `searchPath`
    /// (a `PATH` value; `/usr/local/bin:/usr/bin:/bin` when `nil`).
    package static func canRun(_ program: String, searchPath: String?) -> Bool {
        guard !program.contains("/") else { return isExecutable(program) }
        let folders = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return folders.contains { isExecutable("\($0)/\(program)") }
    }
}

extension FileSystem {
    /// Whether anything exists at `path` (`access(2)` with `F_OK`; a dangling symbolic link does not).
    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether nothing at all is at `path`, not even a dangling symbolic link (`lstat(2)` fails with `ENOENT`).
    package static func isMissing(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) != 0 && errno == ENOENT
    }
}

extension FileSystem {
    /// What makes `path` no private folder of the user `owner` — the XDG Base Directory rule for a runtime folder:
    /// a folder itself (not a symbolic link), owned by `owner`, with no access for group or others; `nil` when it is
    /// one (or does not exist, when `mayBeMissing`).
    package static func privacyProblem(ofFolder path: String, owner: UInt32, mayBeMissing: Bool = false) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return mayBeMissing && errno == ENOENT ? nil : "'\(path)' cannot be read (\(Errno.current))"
        }
        if (info.st_mode & S_IFMT) == S_IFLNK { return "'\(path)' is a symbolic link" }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "'\(path)' is not a folder" }
        guard info.st_uid == owner else { return "'\(path)' is owned by uid \(info.st_uid), not \(owner)" }
        guard info.st_mode & 0o077 == 0 else {
            return "'\(path)' has mode \(String(info.st_mode & 0o777, radix: 8)), not 700"
        }
        return nil
    }
}
