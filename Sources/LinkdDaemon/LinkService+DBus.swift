import Dispatch
import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSystem

extension LinkService {
    /// How long the app may take to answer `Open`, D-Bus activation included.
    static let dbusTimeout: Duration = .seconds(25)

    /// The `dbus` action: `org.freedesktop.Application.Open` on `appID`, which D-Bus activates when it is not running.
    /// The link stays in the spool until the app has answered.
    func openWithDBus(_ link: LinkURL, app: String, appID: String, route: RoutedLink) async -> String {
        let entry: Spool.Entry
        do {
            entry = try record(link.href)
        } catch {
            return error.response
        }
        return await deliverOverDBus(entry, app: app, appID: appID, route: route.id)
    }

    /// Calls `Open` with a spooled link, then removes it from the spool: the app has it, or the failure is reported.
    func deliverOverDBus(_ entry: Spool.Entry, app: String, appID: String, route: String) async -> String {
        let url = entry.url
        // sd_bus_call blocks: it runs on a Dispatch queue, never on the cooperative pool.
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<SystemdError?, Never>) in
            DispatchQueue.global().async {
                do throws(SystemdError) {
                    try SessionBus.openURIs([url], appID: appID, timeout: Self.dbusTimeout)
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: error)
                }
            }
        }
        spool.remove(entry.id)
        if let result {
            // The bus error is the app's own text and may quote the link; the log and the wire answer redact it.
            log.warning(
                "link \(entry.id.prefix(8)) not delivered to \(appID) over D-Bus: \(result)",
                fields(entry, app, route)
            )
            return WireProtocol.failure(
                WireProtocol.Failure(kind: "unavailable", reason: "action_failed", message: "\(app): \(result)")
            )
        }
        log.info("link \(entry.id.prefix(8)) delivered to \(appID) over D-Bus", fields(entry, app, route))
        return WireProtocol.success(route: route, app: app, state: "delivered")
    }
}
