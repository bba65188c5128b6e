import LinkdDesktop

/// The notification an action shows when no client waits for its outcome any more.
enum DesktopNotice {
    /// Sends a desktop notification (markup escaped, controls stripped); a failure is logged.
    static func show(summary: String, body: String, log: DaemonLog) async {
        do {
            try await DesktopNotification.show(summary: summary, body: body)
        } catch {
            log.warning("cannot show a desktop notification: \(error)")
        }
    }
}
