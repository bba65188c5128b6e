import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSystem
import LinkdWeb
import LinkdWire

/// The emailed link of an app's own backend, as `linkd route` shows it: the app, the backend's host, and the app's
/// link that its `redirect_to` matches, whose action runs on the link the backend leads to.
struct EmailedRoute {
    let app: AppConfig
    let backendHost: String
    let target: LinkConfig
}

extension LinkResolver {
    /// `link` as the emailed link of an app's own backend (``emailingApp(of:)``), with the app's link its
    /// `redirect_to` matches; `nil` when it is none.
    func emailed(_ link: LinkURL) -> EmailedRoute? {
        guard let (app, backend) = emailingApp(of: link),
            let redirect = (try? link.parameters())?["redirect_to"], let target = try? LinkURL(parsing: redirect),
            let claim = claim(of: target), claim.app.app == app.app
        else { return nil }
        return EmailedRoute(app: app, backendHost: backend.url.hostname, target: claim.link)
    }
}

extension RouteCommand {
    /// `linkd route --web`: each link decided as a click decides it (``WebStep``, ``WebLinkDecision``), from `apps`
    /// and the association files in the cache; 0 when every link opens an app, 1 when some link opens in the browser.
    func routeWeb(_ apps: [AppConfig], _ console: Console) -> ExitCode {
        let context = WebContext()
        let cache = AssociationCache(folder: context.directories.cacheHome + "/linkd/associations")
        let now = Double(WallClock.seconds)
        var worst = ExitCode.success
        for bytes in LinkInput(arguments: urls, console: console) {
            let input = String(decoding: bytes, as: UTF8.self)
            let shown = reveal ? input : LinkRedactor.redact(input)
            let (decision, why) =
                if let link = try? LinkURL(parsing: bytes) {
                    WebStep.explain(link, apps: apps, cache: cache, now: now)
                } else {
                    (WebLinkDecision.browser(.unclaimed), "it is no link linkd can read, so no app's")
                }
            let app: String?
            switch decision {
            case .app(let name): app = name
            case .browser: app = nil
            }
            if app == nil { worst = max(worst, .unmatched) }
            if json {
                let members: [(String, JSONValue)] = [
                    ("input", .string(shown)), ("opens", .string(app == nil ? "browser" : "app")),
                    ("app", app.map { .string($0) } ?? .null), ("why", .string(why)),
                ]
                console.write(JSONValue.object(members).serialized + "\n")
            } else {
                let opens = app.map { "app " + DisplayText.sanitize($0) } ?? "the browser"
                console.write(
                    DisplayText.sanitize(shown) + "\n  click:  opens \(opens)\n  why:    \(DisplayText.sanitize(why))\n"
                )
            }
        }
        return worst
    }
}
