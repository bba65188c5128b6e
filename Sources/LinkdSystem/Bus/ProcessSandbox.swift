import Glibc

/// Which sandbox a process runs in, read as xdg-desktop-portal reads it: a Flatpak app's processes see
/// `/.flatpak-info` (a key file whose `[Application]` group names the app id in `name`), which the host's do not.
package enum ProcessSandbox: Sendable, Equatable {
    /// No sandbox: a host process.
    case host
    /// A Flatpak sandbox of the app `appID`.
    case flatpak(appID: String)
    /// It could not be told (the process is gone, or its root cannot be read): trust nothing of it.
    case unknown(reason: String)

    /// The sandbox of the process `processID`: `/proc/PID/root/.flatpak-info`, opened below the process's own root
    /// (never through a symlink), a regular file.
    package static func of(processID: Int32) -> ProcessSandbox {
        let root = open("/proc/\(processID)/root", O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard root >= 0 else { return .unknown(reason: "its root cannot be read: \(Errno(rawValue: errno))") }
        defer { close(root) }
        let info = openat(root, ".flatpak-info", O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW)
        if info < 0 {
            return errno == ENOENT ? .host : .unknown(reason: ".flatpak-info: \(Errno(rawValue: errno))")
        }
        defer { close(info) }
        var status = stat()
        guard fstat(info, &status) == 0, status.st_mode & S_IFMT == S_IFREG, let bytes = readAll(info) else {
            return .unknown(reason: ".flatpak-info is not a readable file")
        }
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
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
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
