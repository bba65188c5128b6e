package import LinkdConfig
package import LinkdRouting
import LinkdSession

/// Where a clicked web link goes, decided from local data alone (apps.d and the association files in the cache), never
/// the network: to the app that claims it when the app's site agrees — as iOS opens an app for a universal link —
/// and to the browser otherwise.
///
/// An `https` link is the app's when one of the app's links matches it, the app's `web` section names its identity,
/// and the host's cached association file admits the link for that identity (its apple-app-site-association, or its
/// assetlinks.json, which admits the whole host). The emailed link of an app's own backend
/// (`https://PROJECT.supabase.co/auth/v1/verify?…`) is that app's too when its `redirect_to` is one of the app's
/// links; with another (the project's website) it is the browser's, and nothing asks the backend about it.
package enum WebLinkDecision: Equatable {
    /// To the daemon, for the app.
    case app(String)
    /// To the browser, and why (for `linkd status`, never logged).
    case browser(Reason)

    /// Why a web link goes to the browser.
    package enum Reason: Equatable {
        /// Plain `http`: never an app's.
        case notHTTPS
        /// No app claims it.
        case unclaimed
        /// The app that claims it has no `web` section.
        case noWebSection(app: String)
        /// The host's files do not admit it for the app, or are not there: what they say, or why they are missing.
        case notVerified(app: String, String)
    }

    /// Where `link` goes, with `apps` and the association files of `cache` at `now`.
    package static func decide(
        _ link: LinkURL,
        apps: [AppConfig],
        cache: AssociationCache,
        now: Double
    ) -> WebLinkDecision {
        guard link.scheme == "https" else { return .browser(.notHTTPS) }
        let resolver = LinkResolver(apps: apps, fallbackToBuiltIns: false)
        if let emailing = resolver.emailingApp(of: link) { return .app(emailing.app.app) }
        guard let resolution = try? resolver.resolve(link), let app = resolution.app else {
            return .browser(.unclaimed)
        }
        guard let web = app.web else { return .browser(.noWebSection(app: app.app)) }
        let trust = AssociationTrust(app: app.app, caFile: web.caFile, proxy: web.proxy)
        var reasons: [String] = []
        var isExcluded = false
        if let appID = web.appleAppID {
            switch verdict(
                of: .apple,
                link: link,
                cache: cache,
                trust: trust,
                now: now,
                { bytes in
                    guard let file = try? AppSiteAssociation(parsing: bytes) else { return "the file does not read" }
                    switch file.decision(for: appID, link: link) {
                    case .opens: return nil
                    case .excluded:
                        isExcluded = true
                        return "apple-app-site-association excludes the link for \(appID)"
                    case .notListed: return "apple-app-site-association does not list the link for \(appID)"
                    }
                }
            ) {
            case nil: return .app(app.app)
            case let reason?: reasons.append(reason)
            }
        }
        // A path the site's apple-app-site-association keeps from the app stays the web's: its assetlinks.json, which
        // admits the whole host, never overrides that.
        if isExcluded { return .browser(.notVerified(app: app.app, reasons.joined(separator: "; "))) }
        if let package = web.androidPackage {
            switch verdict(
                of: .android,
                link: link,
                cache: cache,
                trust: trust,
                now: now,
                { bytes in
                    guard let file = try? AssetLinks(parsing: bytes) else { return "the file does not read" }
                    return file.handlesAllLinks(for: package) ? nil : "assetlinks.json does not list \(package)"
                }
            ) {
            case nil: return .app(app.app)
            case let reason?: reasons.append(reason)
            }
        }
        return .browser(.notVerified(app: app.app, reasons.joined(separator: "; ")))
    }

    /// `nil` when the cached `file` of the link's host admits it (`check` says so of its bytes), else why not.
    private static func verdict(
        of file: AssociationFile,
        link: LinkURL,
        cache: AssociationCache,
        trust: AssociationTrust?,
        now: Double,
        _ check: ([UInt8]) -> String?
    ) -> String? {
        let host = link.hostname + (link.port.map { ":\($0)" } ?? "")
        switch cache.stored(file, host: host, trust: trust, now: now) {
        case .fresh(let bytes), .stale(let bytes, _): return check(bytes)
        case .missing(let why): return "\(file.rawValue): \(why)"
        }
    }
}
