import FoundationEssentials
package import LinkdConfig
package import LinkdDesktop
package import LinkdRouting
import LinkdSystem

/// How `linkd open --web URL` (what `linkd-web.desktop` runs for a clicked `http` or `https` link) decides where the
/// link goes, from local data alone: a link an app's own site assigns to the app goes to the daemon; every other link,
/// and one that came back from the browser, opens in the browser linkd replaced. A link that is no app's never reaches
/// the daemon, the log, a notification or the network.
package enum WebStep: Sendable, Equatable {
    /// To the browser; whether the pass is to be recorded (a link seen the first time).
    case browser(String, recordsPass: Bool)
    /// To the daemon, for the app that claims it: the link for the app (the one inside a mail scanner's wrapper,
    /// ``LinkWrapper``), and the link as it was clicked, for the browser when the app cannot take it now.
    case app(String, clicked: String)
    /// It came back from the browser a third time within the loop rule's window: stop, naming its host.
    case stop(String)
}

/// What a click needs to decide: the environment, its folders, the loop rule and (read once) the apps.
package struct WebContext {
    package let environment: [String: String]
    package let directories: XDGDirectories
    package let loopGuard: WebLoopGuard
    package var apps: [AppConfig]?

    package init(environment: [String: String] = CurrentProcess.environment) {
        self.environment = environment
        directories = XDGDirectories(environment: environment)
        // With no runtime folder the loop rule keeps its record in the cache's (private) folder.
        loopGuard = WebLoopGuard(folder: (directories.runtimeDirectory ?? directories.cacheHome) + "/linkd")
    }

    /// The apps of apps.d (read by `loader`, else the installed folders' loader), read the first time.
    package mutating func loadApps(with loader: ConfigLoader? = nil) -> [AppConfig] {
        if let apps { return apps }
        let loaded = (loader ?? ConfigLoader.installed(environment: environment, actions: .linkd)).load().apps
        apps = loaded
        return loaded
    }

    /// Whether an app may take `link`, from ``WebClaimIndex`` when it is current; else apps.d is read (for the
    /// decision that follows) and the index made anew.
    package mutating func mayBeClaimed(_ link: LinkURL) -> Bool {
        guard link.scheme == "https" else { return false }
        guard apps == nil else { return true }
        let path = directories.cacheHome + "/linkd/web-claims"
        if let index = WebClaimIndex.current(at: path) { return index.hosts.contains(link.hostname) }
        let loader = ConfigLoader.installed(environment: environment, actions: .linkd)
        let sources = WebClaimIndex.sources(of: loader.directories.map(\.path))
        let apps = loadApps(with: loader)
        try? WebClaimIndex(sources: sources, apps: apps).write(to: path, now: WallClock.seconds)
        return true
    }
}

extension WebStep {
    /// Where `bytes` goes: the loop rule first, then the decision from apps.d and the association files' cache. When
    /// `becomesBrowser`, this process becomes the browser a link goes to (the last link of the command).
    package static func decide(for bytes: [UInt8], _ context: inout WebContext, becomesBrowser: Bool = true) -> WebStep
    {
        let text = String(decoding: bytes, as: UTF8.self)
        let now = Double(WallClock.seconds)
        let environment = context.environment
        let browser = { becomesBrowser ? WebBrowser.forWebLinks(environment)?.processBecoming : nil }
        switch (try? context.loopGuard.arrive(text, now: now, browser: browser)) ?? .route {
        case .stop: return .stop(text)
        case .browserAgain: return .browser(text, recordsPass: false)
        case .route: break
        }
        guard let link = try? LinkURL(parsing: bytes) else { return .browser(text, recordsPass: true) }
        let inner = LinkWrapper.unwrap(link)
        if inner == nil, !context.mayBeClaimed(link) { return .browser(text, recordsPass: true) }
        let apps = context.loadApps()
        let cache = AssociationCache(folder: context.directories.cacheHome + "/linkd/associations")
        switch explain(link, inner: inner, apps: apps, cache: cache, now: now).decision {
        case .browser: return .browser(text, recordsPass: true)
        case .app: return .app(inner?.href ?? text, clicked: text)
        }
    }

    /// Where a click of `link` goes after the loop rule, from `apps` and the files of `cache` at `now`, and why in
    /// words (``WebLinkDecision/explain(_:apps:cache:now:)``): what `linkd route --web` says.
    package static func explain(
        _ link: LinkURL,
        apps: [AppConfig],
        cache: AssociationCache,
        now: Double
    ) -> (decision: WebLinkDecision, why: String) {
        explain(link, inner: LinkWrapper.unwrap(link), apps: apps, cache: cache, now: now)
    }

    /// ``explain(_:apps:cache:now:)`` of `link`, whose mail scanner's wrapper holds `inner` (`nil`: none).
    private static func explain(
        _ link: LinkURL,
        inner: LinkURL?,
        apps: [AppConfig],
        cache: AssociationCache,
        now: Double
    ) -> (decision: WebLinkDecision, why: String) {
        // A link in a mail scanner's wrapper is decided as the link it wraps: the app gets that link, never a request
        // to the wrapper; the browser gets the link as it was clicked, wrapper and all. A wrapper is opened only to an
        // https link, which must then be an app's as any web link: one that wraps a custom scheme (a forged
        // `google.com/url?q=myapp://…`, an app's program run with no question, disguised as google.com) goes to the
        // browser as clicked, which asks before it opens an app.
        if let inner, inner.scheme != "https" {
            return (.browser(.notHTTPS), "a mail scanner's wrapper of a link that is no https one opens as clicked")
        }
        let (decision, why) = WebLinkDecision.explain(inner ?? link, apps: apps, cache: cache, now: now)
        return (decision, inner == nil ? why : "the link inside a mail scanner's wrapper: " + why)
    }
}

extension WebBrowser {
    /// The browser web links go to: the one `linkd register --web` recorded, else another installed one.
    package static func forWebLinks(_ environment: [String: String]) -> WebBrowser? {
        WebBrowser.choose(recorded: Registrar.recordedBrowser(environment: environment), environment: environment)
    }
}
