import Glibc

/// Which sandbox a process runs in, read as xdg-desktop-portal reads it: a Flatpak app's processes see
/// `/.flatpak-info` (a key file whose `[Application]` group names the app id in `name`), which the host's do not.
package enum ProcessSandbox: Sendable, Equatable {
    /// No sandbox: a host process.
    case host
    /// A Flatpak sandbox of the app `appID`.
    case flatpak(appID: String)
    /// It could not be told (the process is gone, or its files cannot be read): trust nothing of it.
    case unknown(reason: String)

    /// The sandbox of the process `processID`: its `/.flatpak-info`, opened below the process's own root
    /// (`/proc/PID/root`, never through a symbolic link), a regular file.
    ///
    /// A process in a user namespace of its own (the shipped unit's `PrivateUsers=`) may not open another user
    /// namespace's root, a Flatpak sandbox's included. It then finds the file through the process's mount table, as
    /// Flatpak mounts it: the file mounted at the sandbox's `/.flatpak-info`, reached from this process's own mounts
    /// of that file system and checked to be on it.
    package static func of(processID: Int32) -> ProcessSandbox {
        let root = open("/proc/\(processID)/root", O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard root >= 0 else {
            let error = errno
            guard error == EACCES || error == EPERM else {
                return .unknown(reason: "its root cannot be read: \(Errno(rawValue: error))")
            }
            return throughMountTable(of: processID)
        }
        defer { close(root) }
        let info = openat(root, ".flatpak-info", O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK)
        if info < 0 {
            return errno == ENOENT ? .host : .unknown(reason: ".flatpak-info: \(Errno(rawValue: errno))")
        }
        defer { close(info) }
        return read(info, device: nil)
    }

    /// The sandbox of `processID` as its mount table shows it: a host process has nothing mounted at
    /// `/.flatpak-info`.
    static func throughMountTable(of processID: Int32) -> ProcessSandbox {
        guard let theirs = MountTable(ofProcess: String(processID)) else {
            return .unknown(reason: "its mount table cannot be read")
        }
        guard let mount = theirs.top(at: "/.flatpak-info") else { return .host }
        guard !mount.root.hasSuffix(" (deleted)"), let mine = MountTable(ofProcess: "self") else {
            return .unknown(reason: "its /.flatpak-info cannot be reached")
        }
        for path in mine.paths(reaching: mount) {
            let info = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK)
            guard info >= 0 else { continue }
            defer { close(info) }
            return read(info, device: mount.device)
        }
        return .unknown(reason: "its /.flatpak-info cannot be reached")
    }

    /// The app `descriptor`'s key file names: a regular file (on `device`, when given) of at most 64 KiB.
    private static func read(_ descriptor: CInt, device: dev_t?) -> ProcessSandbox {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            device.map({ $0 == status.st_dev }) ?? true,
            status.st_size <= 65_536, let bytes = readAll(descriptor)
        else { return .unknown(reason: ".flatpak-info is not a readable file") }
        guard let appID = appID(inKeyFile: String(decoding: bytes, as: UTF8.self)) else {
            return .unknown(reason: ".flatpak-info names no app")
        }
        return .flatpak(appID: appID)
    }

    /// What `descriptor` holds, up to 64 KiB; `nil` when it cannot be read or holds more.
    private static func readAll(_ descriptor: CInt) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= 65_536 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
        return nil
    }

    /// The `name` of the `[Application]` group of a key file.
    static func appID(inKeyFile text: String) -> String? {
        var inApplication = false
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmed
            if trimmed.hasPrefix("[") {
                inApplication = trimmed == "[Application]"
            } else if inApplication, let equals = trimmed.firstIndex(of: "=") {
                let value = trimmed[trimmed.index(after: equals)...].trimmed
                if trimmed[..<equals].trimmed == "name", !value.isEmpty { return String(value) }
            }
        }
        return nil
    }
}

extension Substring {
    /// Without white space at either end.
    fileprivate var trimmed: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
