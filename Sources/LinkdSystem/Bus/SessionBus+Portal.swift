import CSystemd

extension SessionBus {
    /// How ``openThroughPortal(_:timeout:)`` went.
    package enum PortalOutcome: Equatable, Sendable {
        /// The portal took the link: the person's browser opens it.
        case opened
        /// No session bus, no portal on it, or no libsystemd: nothing was opened.
        case unavailable
        /// The portal answered with an error (`errno`): nothing was opened.
        case failed(Errno)
    }

    /// Opens `uri` through the desktop portal (`org.freedesktop.portal.OpenURI.OpenURI`), which hands it to the
    /// person's browser with the link in no process's command line; blocks up to `timeout` for the portal's answer.
    package static func openThroughPortal(_ uri: String, timeout: Duration) -> PortalOutcome {
        guard let sd = try? Libsystemd.calls() else { return .unavailable }
        let (seconds, attoseconds) = timeout.components
        let microseconds = UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000_000)
        let result = linkd_portal_open_uri(sd, uri, microseconds)
        switch result {
        case 1: return .opened
        case 0: return .unavailable
        default: return .failed(Errno(rawValue: -result))
        }
    }
}
