import FoundationEssentials
import LinkdFormats
import LinkdSystem

/// The daemon's log: the journal when there is one (structured `LINKD_*` fields), else standard error (with the
/// `<N>` syslog prefix when it is a journal stream). Messages name links by their spool id, never by their text;
/// as a safety net every message also passes through ``LinkRedactor``.
package struct DaemonLog: Sendable {
    enum Sink: Sendable {
        case journal
        case standardError(prefixed: Bool)
    }

    let sink: Sink

    /// The log for this process's environment.
    package static func make(environment: [String: String] = ProcessInfo.processInfo.environment) -> DaemonLog {
        if environment["JOURNAL_STREAM"] != nil && Journal.isAvailable { return DaemonLog(sink: .journal) }
        return DaemonLog(sink: .standardError(prefixed: environment["JOURNAL_STREAM"] != nil))
    }

    package func info(_ message: String, _ fields: [(String, String)] = []) { write(message, .info, fields) }
    package func notice(_ message: String, _ fields: [(String, String)] = []) { write(message, .notice, fields) }
    package func warning(_ message: String, _ fields: [(String, String)] = []) { write(message, .warning, fields) }
    package func error(_ message: String, _ fields: [(String, String)] = []) { write(message, .error, fields) }

    private func write(_ message: String, _ priority: Journal.Priority, _ fields: [(String, String)]) {
        let safe = LinkRedactor.redact(DisplayText.sanitize(message))
        switch sink {
        case .journal:
            let clean = fields.map { ($0.0, LinkRedactor.redact(DisplayText.sanitize($0.1))) }
            if (try? Journal.send(safe, priority: priority, identifier: "linkd", fields: clean)) != nil { return }
            FileDescriptor.standardError.writeAll("linkd: \(safe)\n")
        case .standardError(let prefixed):
            let prefix = prefixed ? "<\(priority.rawValue)>" : ""
            let suffix = fields.isEmpty ? "" : " (" + fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ") + ")"
            FileDescriptor.standardError.writeAll("\(prefix)linkd: \(safe)\(LinkRedactor.redact(suffix))\n")
        }
    }
}
