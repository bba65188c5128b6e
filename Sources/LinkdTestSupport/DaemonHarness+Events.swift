import Foundation
package import LinkdWire

/// A line of the daemon's log that says what happened (its `LINKD_EVENT` field), with its other fields.
package struct LoggedEvent: Sendable, Equatable {
    package let event: DaemonEvent
    /// The line's message, without its time and fields.
    package let message: String
    /// The line's `LINKD_*` fields, `LINKD_EVENT` included.
    package let fields: [String: String]

    /// The event of a line the daemon wrote to standard error (`TIME linkd: MESSAGE (LINKD_EVENT=… K=V …)`); `nil`
    /// for a line with no event.
    package init?(line: Substring) {
        guard let open = line.range(of: " (LINKD_", options: .backwards), line.hasSuffix(")") else { return nil }
        var fields: [String: String] = [:]
        for pair in line[line.index(after: open.lowerBound)..<line.index(before: line.endIndex)].dropFirst()
            .split(separator: " ")
        {
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            fields[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        guard let event = fields["LINKD_EVENT"].flatMap(DaemonEvent.init(rawValue:)) else { return nil }
        let start = line.range(of: "linkd: ")?.upperBound ?? line.startIndex
        self.event = event
        message = String(line[start..<open.lowerBound])
        self.fields = fields
    }

    /// Whether the event is `event` and has every field of `fields`.
    package func matches(_ event: DaemonEvent, _ fields: [String: String]) -> Bool {
        self.event == event && fields.allSatisfy { self.fields[$0.key] == $0.value }
    }
}

extension DaemonHarness {
    /// What the daemon logged to `log` (the world's log file, where `linkd open` sends the daemon it starts, unless
    /// another is named), as events, oldest first.
    package func daemonEvents(in log: String? = nil) -> [LoggedEvent] {
        let text = (try? String(contentsOfFile: log ?? logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap(LoggedEvent.init(line:))
    }

    /// Waits until the daemon has logged `count` events `event` with every field of `fields` (to `log`, the world's
    /// log file unless another is named), or `timeout` passes. Each line the daemon logs wakes the wait: the daemon's
    /// own word for what it did, rather than what shows of it in the world's files.
    ///
    /// - Returns: whether it logged them.
    package func waitForEvent(
        _ event: DaemonEvent,
        count: Int = 1,
        fields: [String: String] = [:],
        in log: String? = nil,
        within timeout: Duration
    ) -> Bool {
        waitUntil(timeout) { daemonEvents(in: log).count { $0.matches(event, fields) } >= count }
    }
}

extension DaemonHarness {
    /// The world's log file, its folder made (0700) if it was not there: where a daemon a test starts itself writes,
    /// so that ``waitForEvent(_:count:fields:in:within:)`` hears it as it hears one `linkd open` started.
    package func logFile() throws -> String {
        let folder = (logPath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: folder,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        return logPath
    }
}

extension DaemonHarness {
    /// Starts the daemon with `bus` as its session bus (and `extra` in its environment), logging to the world's log
    /// file, and waits (up to 10 s) until it owns its name there: the apps' interface is then up.
    ///
    /// - Throws: ``HarnessError/timedOut(waitingFor:after:)`` when it does not own the name in time (it is stopped).
    package func startDaemon(onBus bus: PrivateSessionBus, extra: [String: String] = [:]) throws -> SpawnedProcess {
        let daemon = try startDaemon(
            extra: extra.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 },
            stderrPath: try logFile()
        )
        guard waitForEvent(.busNameTaken, within: .seconds(10)) else {
            daemon.terminate()
            throw HarnessError.timedOut(
                waitingFor: "the daemon to own its name on the session bus",
                after: .seconds(10)
            )
        }
        return daemon
    }
}
