import Foundation
import Glibc
import LinkdDaemon
import LinkdSystemd

/// The client half of `linkd open`: one connection to the daemon, started on demand.
struct DaemonClient {
    /// The daemon could not be reached.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    let paths: DaemonPaths
    private var descriptor: FileDescriptor?
    private var pending: [UInt8] = []

    init(paths: DaemonPaths) {
        self.paths = paths
    }

    /// Connects, starting `linkd daemon` when nobody answers and retrying for up to five seconds.
    mutating func connect() throws(Unavailable) {
        if let descriptor = try? UnixSocket.connect(path: paths.socket) {
            adopt(descriptor)
            return
        }
        startDaemon()
        var delay = 0.005
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if let descriptor = try? UnixSocket.connect(path: paths.socket) {
                adopt(descriptor)
                return
            }
            Thread.sleep(forTimeInterval: delay)
            delay = min(delay * 2, 0.1)
        }
        throw Unavailable(description: "the linkd daemon is not running and could not be started (log: \(paths.log))")
    }

    private mutating func adopt(_ descriptor: FileDescriptor) {
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        _ = setsockopt(descriptor.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
        pending = []
    }

    /// Sends one request line and returns the response line; `nil` when the connection ended first.
    mutating func exchange(_ line: String) -> String? {
        guard let descriptor else { return nil }
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                send(descriptor.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            offset += count
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let response = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return response
            }
            let count = read(descriptor.rawValue, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }

    /// Closes the connection.
    mutating func close() {
        descriptor?.close()
        descriptor = nil
    }

    /// Starts `linkd daemon` detached, its output appended to the log (0600, rotated past 1 MiB).
    private func startDaemon() {
        let logURL = URL(fileURLWithPath: paths.log)
        try? FileManager.default.createDirectory(
            at: logURL.deletingLastPathComponent(),
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        if let size = (try? FileManager.default.attributesOfItem(atPath: paths.log))?[.size] as? Int, size > 1 << 20 {
            _ = rename(paths.log, paths.log + ".1")
        }
        let fd = open(paths.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let log = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executablePath)
        process.arguments = ["daemon"]
        var environment = ProcessInfo.processInfo.environment
        environment["LINKD_AUTOSTART"] = "1"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        try? process.run()
    }

    /// This program's absolute path.
    static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
