import FoundationEssentials
import Glibc
import LinkdConfig
import LinkdFormats
import LinkdSystem

/// The `exec` action: the app's program gets the route as one JSON object on standard input, with the
/// real values, and nothing secret in its argv or environment.
enum ExecAction {
    /// How long a program may take to read its standard input before the delivery counts as failed.
    static let readDeadline: Duration = .seconds(10)

    /// `{"id", "app", "route", "fields", "url"}` and a newline.
    static func payload(id: String, app: String, route: RoutedLink, url: String) -> [UInt8] {
        let fields = JSONValue.object(
            route.fields.map { field in
                switch field.value {
                case .number(let number): (field.name, .number(number))
                case .text(let text): (field.name, .string(text))
                case .secret(let secret): (field.name, .string(secret.revealed()))
                }
            }
        )
        let object = JSONValue.object([
            ("id", .string(id)), ("app", .string(app)), ("route", .string(route.id)), ("fields", fields),
            ("url", .string(url)),
        ])
        return Array((object.serialized + "\n").utf8)
    }

    /// The daemon's environment without what belongs to the daemon alone, plus `LINKD_LINK_ID`.
    static func environment(linkID: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC"] {
            environment.removeValue(forKey: key)
        }
        environment["LINKD_LINK_ID"] = linkID
        return environment
    }

    /// Starts `arguments`, writes `payload` to its standard input and waits until it has read it all.
    ///
    /// - Returns: the running child.
    /// - Throws: ``SystemdError`` when it cannot start, ``Failure`` when it exits or stalls before reading.
    static func deliver(_ arguments: [String], payload: [UInt8], linkID: String) async throws -> ChildProcess {
        let child = try ChildProcess.spawn(
            arguments,
            environment: environment(linkID: linkID),
            output: FileDescriptor(rawValue: STDERR_FILENO)
        )
        do {
            let input = try AsyncSocket(child.input)
            try await input.write(payload, deadline: .now + readDeadline)
            input.close()
        } catch {
            child.input.close()
            if child.exitStatusIfExited() == nil { child.kill() }
            child.inputProbe.close()
            throw Failure.stalled
        }
        let deadline = ContinuousClock.now + readDeadline
        while child.pendingInputBytes > 0 {
            if let status = child.exitStatusIfExited() {
                child.inputProbe.close()
                throw Failure.exitedBeforeReading(status: status)
            }
            guard ContinuousClock.now < deadline else {
                child.kill()
                child.inputProbe.close()
                throw Failure.stalled
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        child.inputProbe.close()
        return child
    }

    /// A program that did not take its link.
    enum Failure: Error, CustomStringConvertible {
        case exitedBeforeReading(status: Int32)
        case stalled

        var description: String {
            switch self {
            case .exitedBeforeReading(let status): "the program exited with status \(status) before reading the link"
            case .stalled: "the program did not read the link within \(ExecAction.readDeadline)"
            }
        }
    }
}
