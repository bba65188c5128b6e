import Dispatch

/// Desktop notifications (`org.freedesktop.Notifications`): sd-bus calls block, so they run on this queue, never on
/// the cooperative pool. Their body is markup: see `DisplayText.escapeMarkup`.
enum DesktopNotification {
    static let queue = DispatchQueue(label: "linkd.notifications")
}
