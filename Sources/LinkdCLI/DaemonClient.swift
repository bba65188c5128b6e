import FoundationEssentials
import Glibc
import LinkdConfig
import LinkdDaemon
import LinkdFormats
import LinkdSystem

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
            usleep(useconds_t(delay * 1_000_000))
            delay = min(delay * 2, 0.1)
        }
        throw Unavailable(description: "the linkd daemon is not running and could not be started (log: \(paths.log))")
    }

    private mutating func adopt(_ descriptor: FileDescriptor) {
        // The daemon's longest silence: a reset's 60 s of backend requests (retries included), then its answer.
        var timeout = timeval(tv_sec: 130, tv_usec: 0)
        _ = setsockopt(descriptor.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
        pending = []
    }

    /// A response line, and its JSON when it is JSON (read once, here).
    struct Response {
        var line: String
        var object: JSONValue?
    }

    /// Sends one request line and returns the response; `nil` when the connection ended first. A password question
    /// the daemon asks on the way is answered with `answer`.
    mutating func exchange(
        _ line: String,
        answer: (WireProtocol.PasswordQuestion) -> Secret? = { _ in nil }
    ) -> Response? {
        guard let descriptor else { return nil }
        write(line, on: descriptor)
        while let bytes = nextLine(descriptor) {
            let object = try? JSONValue.parse(bytes)
            guard let question = object.flatMap(WireProtocol.PasswordQuestion.init) else {
                return Response(line: String(decoding: bytes, as: UTF8.self), object: object)
            }
            write(WireProtocol.passwordAnswer(answer(question)), on: descriptor)
        }
        return nil
    }

    private func write(_ line: String, on descriptor: FileDescriptor) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                send(descriptor.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            // The daemon may have answered and closed before reading the request (a refusal of this uid): its
            // answer is still waiting to be read.
            guard count > 0 else { break }
            offset += count
        }
    }

    private mutating func nextLine(_ descriptor: FileDescriptor) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let response = Array(pending[..<newline])
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

    /// Starts `linkd daemon` detached, its output appended to the log (0600, rotated past 1 MiB). The daemon leaves
    /// this process's session itself (it sees `LINKD_AUTOSTART`).
    private func startDaemon() {
        try? FileManager.default.createDirectory(
            atPath: String(paths.log[..<(paths.log.lastIndex(of: "/") ?? paths.log.endIndex)]),
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        if let size = (try? FileManager.default.attributesOfItem(atPath: paths.log))?[.size] as? Int, size > 1 << 20 {
            _ = rename(paths.log, paths.log + ".1")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, paths.log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        SpawnAttributes.closeInherited(&actions)  // the daemon inherits nothing of this client
        var environment = ProcessInfo.processInfo.environment
        environment["LINKD_AUTOSTART"] = "1"
        let words: [String] = [Self.executablePath, "daemon"]
        let argv = words.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        _ = SpawnAttributes.withClean { posix_spawn(&pid, Self.executablePath, &actions, $0, argv, envp) }
    }

    /// This program's absolute path.
    static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
