import LinkdConfig
import LinkdDesktop
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdWeb

/// What `linkd status` says of web links: whether they come to linkd, the browser that gets the others, each claimed
/// host's verification, and a browser that took the links back (which makes `status` exit 1).
struct WebStatus: Equatable {
    /// Whether `linkd register --web` recorded a browser.
    var isRegistered: Bool
    /// The desktop id the mimeapps.list files name for `x-scheme-handler/https`; `nil` when none names one.
    var handler: String?
    /// The browser links no app takes open in; `nil` when none is installed.
    var browser: String?
    /// The recorded browser, when it is gone and ``browser`` stands in for it.
    var goneBrowser: String?
    /// Each claimed host's verification, from the cache.
    var hosts: [WebHostStatus]

    /// Whether a browser (or anything else) took web links back after `linkd register --web`.
    var isTakenBack: Bool { isRegistered && handler != WebDesktopEntry.id }

    /// The state for `environment`, from local files alone.
    static func gather(environment: [String: String], apps: [AppConfig]) -> WebStatus {
        let registrar = Registrar(environment: environment, actions: .linkd)
        let recorded = try? registrar.readWebRegistration()
        let browser = WebBrowser.choose(recorded: recorded?.browser, environment: environment)
        let cache = AssociationCache(folder: XDGDirectories(environment: environment).cacheHome + "/linkd/associations")
        return WebStatus(
            isRegistered: recorded != nil,
            handler: WebBrowser.listedDefault(environment: environment),
            browser: recorded == nil ? WebBrowser.current(environment: environment)?.id : browser?.id,
            goneBrowser: recorded.flatMap { $0.browser == browser?.id ? nil : $0.browser },
            hosts: WebHostStatus.all(of: apps, cache: cache, now: Double(WallClock.seconds))
        )
    }

    /// The lines `linkd status` prints.
    var lines: [String] {
        let browserName = browser ?? "no browser (none is installed)"
        var lines: [String]
        if !isRegistered {
            lines = [
                browser.map { "web links: open in \($0) ('linkd register --web' sends an app's own to the app)" }
                    ?? "web links: no browser is installed to open them"
            ]
        } else if isTakenBack {
            lines = ["web links: \(handler ?? "another handler") took them back; run 'linkd register --web'"]
        } else {
            lines = ["web links: come to linkd; others open in \(browserName)"]
            if let goneBrowser { lines.append("  \(goneBrowser), the browser linkd replaced, is gone") }
        }
        return lines + hosts.map { "  " + $0.line }
    }

    /// The `web` member of `linkd status --json`.
    var json: JSONValue {
        let hosts = hosts.map { host in
            let (verdict, reason): (String, String?) =
                switch host.verdict {
                case .verified: ("verified", nil)
                case .stale(let failure): ("stale", failure)
                case .notListed: ("not_listed", nil)
                case .unreadable: ("unreadable", nil)
                case .notFetched(let why): ("not_fetched", why)
                }
            return JSONValue.object(
                [
                    ("app", .string(host.app)), ("host", .string(host.host)), ("file", .string(host.file.rawValue)),
                    ("identity", .string(host.identity)), ("verification", .string(verdict)),
                ] + (reason.map { [("reason", JSONValue.string($0))] } ?? [])
            )
        }
        return .object([
            ("registered", .bool(isRegistered)), ("handler", handler.map(JSONValue.string) ?? .null),
            ("browser", browser.map(JSONValue.string) ?? .null), ("takenBack", .bool(isTakenBack)),
            ("hosts", .array(hosts)),
        ])
    }
}
