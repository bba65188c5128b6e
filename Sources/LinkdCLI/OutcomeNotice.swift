import FoundationEssentials
import LinkdConfig
import LinkdDesktop
import LinkdFormats
import LinkdSystem
import LinkdWire

/// What a person who clicked a link sees: the desktop entry runs `linkd open` with no terminal, so when standard
/// error is none, the outcome is also a desktop notification — its summary the app (or linkd), its body in plain
/// words, never a secret (the daemon's text is redacted, the notification's markup escaped). One notification for the
/// whole run: a click is one link; a run of several says how many failed and the first reason.
struct OutcomeNotice {
    /// How long `linkd open` waits for the notification server before it exits anyway.
    static let timeout: Duration = .seconds(1)

    private var outcomes: [(app: String?, succeeded: Bool, text: String)] = []

    /// Whether a notification is wanted and can be shown: nobody would see standard error (no terminal there), and
    /// there is a session bus to ask (`DBUS_SESSION_BUS_ADDRESS`, or `$XDG_RUNTIME_DIR/bus`) — so a script or a
    /// benchmark without a desktop session pays nothing for it.
    static func isNeeded(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard !FileDescriptor.standardError.isTerminal else { return false }
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        return XDGDirectories(environment: environment).runtimeDirectory.map { FileSystem.exists($0 + "/bus") } ?? false
    }

    /// Notes the daemon's answer for one link.
    mutating func record(_ response: WireProtocol.Response) {
        switch response {
        case .accepted(_, let app, .done, let message?):
            outcomes.append((app, true, Self.sentence(message, capitalized: true)))
        case .accepted(_, let app, .queued, _):
            outcomes.append((app, true, "The link will open when \(app ?? "the app") starts."))
        case .accepted(_, let app, _, _):
            outcomes.append((app, true, "The link was opened in \(app ?? "its app")."))
        case .subscribed, .waiting:
            break
        case .failed(let failure):
            outcomes.append((nil, false, "The link was not opened: " + Self.sentence(failure.message)))
        }
    }

    /// Notes a failure of the whole run (no daemon, say).
    mutating func record(failure message: String) {
        outcomes.append((nil, false, "The link was not opened: " + Self.sentence(message)))
    }

    /// The notification's summary and body; `nil` when there is nothing to say.
    var notification: (summary: String, body: String)? {
        guard let first = outcomes.first else { return nil }
        guard outcomes.count > 1 else { return (first.app ?? "linkd", first.text) }
        let failed = outcomes.filter { !$0.succeeded }
        guard let firstFailure = failed.first else { return ("linkd", "\(outcomes.count) links were opened.") }
        return ("linkd", "\(failed.count) of \(outcomes.count) links were not opened. \(firstFailure.text)")
    }

    /// Shows the notification, waiting at most ``timeout`` for the server. When none answers nothing more is said:
    /// standard error (which the desktop session keeps in its log) has the outcome already.
    func show() async {
        guard let (summary, body) = notification else { return }
        try? await DesktopNotification.show(summary: summary, body: body, timeout: Self.timeout)
    }

    /// `text` with a full stop, and a capital first letter when it stands alone (after a colon it stays as it is: it
    /// may start with an app id).
    private static func sentence(_ text: String, capitalized: Bool = false) -> String {
        let clean = DisplayText.sanitize(text)
        guard let first = clean.first else { return clean }
        return (capitalized ? first.uppercased() + clean.dropFirst() : clean) + (clean.hasSuffix(".") ? "" : ".")
    }
}
