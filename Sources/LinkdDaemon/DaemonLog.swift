import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdSystem
package import LinkdWire

/// The daemon's log: the journal when there is one (structured `LINKD_*` fields), else standard error (with the
/// `<N>` syslog prefix when it is a journal stream, else with an ISO 8601 time in front of each line). When standard
/// error is linkd's log file (`$XDG_STATE_HOME/linkd/linkd.log`, where `linkd open` sends an autostarted daemon's),
/// the log rotates it at 1 MiB (``LogRotation``).
///
/// Messages name links by their spool id, or by scheme and host (`WireProtocol.Failure.name(of:)`), never by their
/// path or parameters; as a safety net every message also passes through ``LinkRedactor``.
package struct DaemonLog: Sendable {
    enum Sink: Sendable {
        case journal
        case standardError(prefixed: Bool)
    }

    let sink: Sink
    /// The rotation of the log file standard error is, when it is linkd's.
    let rotation: LogRotation?

    /// The log for this process's environment.
    package static func make(environment: [String: String] = ProcessInfo.processInfo.environment) -> DaemonLog {
        if environment["JOURNAL_STREAM"] != nil && Journal.isAvailable {
            return DaemonLog(sink: .journal, rotation: nil)
        }
        let rotation = LogRotation(path: XDGDirectories(environment: environment).linkdState + "/linkd.log")
        // Standard error that is linkd's log file is no journal stream, whatever JOURNAL_STREAM a client passed on.
        let isJournalStream = environment["JOURNAL_STREAM"] != nil && rotation == nil
        return DaemonLog(sink: .standardError(prefixed: isJournalStream), rotation: rotation)
    }

    /// `text` (an app's own words, say) with every copy of the link `url` replaced by `<the link>`.
    static func hiding(_ url: String, in text: String) -> String {
        url.isEmpty ? text : text.replacing(url, with: "<the link>")
    }

    package func info(_ message: String, _ fields: [(String, String)] = [], event: DaemonEvent? = nil) {
        write(message, .info, Self.fields(fields, event))
    }

    package func notice(_ message: String, _ fields: [(String, String)] = [], event: DaemonEvent? = nil) {
        write(message, .notice, Self.fields(fields, event))
    }

    package func warning(_ message: String, _ fields: [(String, String)] = [], event: DaemonEvent? = nil) {
        write(message, .warning, Self.fields(fields, event))
    }

    package func error(_ message: String, _ fields: [(String, String)] = [], event: DaemonEvent? = nil) {
        write(message, .error, Self.fields(fields, event))
    }

    /// `fields` with `event` first, as `LINKD_EVENT`.
    private static func fields(_ fields: [(String, String)], _ event: DaemonEvent?) -> [(String, String)] {
        guard let event else { return fields }
        return [("LINKD_EVENT", event.rawValue)] + fields
    }

    private func write(_ message: String, _ priority: Journal.Priority, _ fields: [(String, String)]) {
        let safe = LinkRedactor.redact(DisplayText.sanitize(message))
        switch sink {
        case .journal:
            let clean = fields.map { ($0.0, LinkRedactor.redact(DisplayText.sanitize($0.1))) }
            if (try? Journal.send(safe, priority: priority, identifier: "linkd", fields: clean)) != nil { return }
            FileDescriptor.standardError.writeAll("linkd: \(safe)\n")
        case .standardError(let prefixed):
            let prefix = prefixed ? "<\(priority.rawValue)>" : WallClock.iso8601() + " "
            let suffix = fields.isEmpty ? "" : " (" + fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ") + ")"
            let line = "\(prefix)linkd: \(safe)\(LinkRedactor.redact(suffix))\n"
            rotation?.willWrite(line.utf8.count)
            FileDescriptor.standardError.writeAll(line)
        }
    }
}
