package import LinkdConfig
import LinkdFormats
package import LinkdRouting
import LinkdSession

/// Where a clicked web link goes, decided from local data alone (apps.d and the association files in the cache), never
/// the network: to the app that claims it when the app's site agrees — as iOS opens an app for a universal link —
/// and to the browser otherwise.
///
/// An `https` link is the app's when one of the app's links matches it, the app's `web` section names its identity,
/// and the host's cached association file admits the link for that identity (its apple-app-site-association, or its
/// assetlinks.json with the files it includes: the whole host, or the links its dynamic rules admit, through a
/// statement with a fingerprint the app expects when its `web.androidFingerprints` names any). The emailed link of an app's own backend
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
        explain(link, apps: apps, cache: cache, now: now).decision
    }

    /// Where `link` goes (as ``decide(_:apps:cache:now:)``), and why in words: the backend whose emailed link it is,
    /// or the host's file and the rule that decided (its JSON path), or why the browser.
    package static func explain(
        _ link: LinkURL,
        apps: [AppConfig],
        cache: AssociationCache,
        now: Double
    ) -> (decision: WebLinkDecision, why: String) {
        guard link.scheme == "https" else { return (.browser(.notHTTPS), "only an https link can open an app") }
        let resolver = LinkResolver(apps: apps, fallbackToBuiltIns: false)
        if let (app, backend) = resolver.emailingApp(of: link) {
            let why = "the emailed link of \(app.app)'s backend \(backend.url.hostname), whose redirect_to is its link"
            return (.app(app.app), why)
        }
        let resolution: Resolution
        do throws(RouteError) {
            resolution = try resolver.resolve(link)
        } catch {
            // One of an app's links matches it, but it does not read as that link's format: the daemon would refuse
            // it, and the site's page is where it goes.
            guard let refusal = error.refusal, let app = resolver.claimingApp(of: link) else {
                return (.browser(.unclaimed), "no app claims the link")
            }
            let why = "\(app.app)'s link matches it, but it does not read as that link: \(refusal.reason.rawValue)"
            return (.browser(.unclaimed), why)
        }
        guard let app = resolution.app else { return (.browser(.unclaimed), "no app claims the link") }
        guard let web = app.web else {
            return (.browser(.noWebSection(app: app.app)), "\(app.app) claims it but has no web section")
        }
        let trust = AssociationTrust(app: app.app, caFile: web.caFile, proxy: web.proxy)
        let site = Site(link: link, cache: cache, trust: trust, now: now)
        // Why not, for the decision; and with the rule that decided, for the words.
        var (reasons, whys) = ([String](), [String]())
        if let appID = web.appleAppID {
            let verdict = site.apple(appID)
            guard let reason = verdict.reason else {
                let file =
                    "\(site.host)'s apple-app-site-association (\(cache.source(.apple, host: site.host, trust: trust)))"
                return (.app(app.app), "\(file) admits it for \(appID) by \(verdict.rule ?? "a rule")")
            }
            reasons.append(reason)
            whys.append(reason + (verdict.rule.map { " (by \($0))" } ?? ""))
            // A path the site's apple-app-site-association keeps from the app stays the web's: its assetlinks.json
            // never overrides that.
            if verdict.excludes {
                return (.browser(.notVerified(app: app.app, reason)), "\(app.app) claims it, but " + whys[0])
            }
        }
        if let package = web.androidPackage {
            let verdict = site.android(package, fingerprints: web.androidFingerprints)
            guard let reason = verdict.reason else {
                let by = verdict.rule ?? "a statement"
                return (.app(app.app), "\(site.host)'s assetlinks.json admits it for \(package) by \(by)")
            }
            reasons.append(reason)
            whys.append(reason + (verdict.rule.map { " (by \($0))" } ?? ""))
        }
        let why = "\(app.app) claims it, but " + whys.joined(separator: "; ")
        return (.browser(.notVerified(app: app.app, reasons.joined(separator: "; "))), why)
    }
}

/// What a link's host says of it, from its association files in the cache.
private struct Site {
    /// What one file says: `nil` when it admits the link, else why not; the JSON path of the rule (or statement) that
    /// decided; whether it keeps the link from the app.
    struct Verdict {
        var reason: String?
        var rule: String?
        var excludes = false
    }

    let link: LinkURL
    let cache: AssociationCache
    let trust: AssociationTrust?
    let now: Double

    var host: String { link.authority }

    /// What the host's apple-app-site-association says of the link for `appID`.
    func apple(_ appID: String) -> Verdict {
        stored(.apple) { bytes in
            guard let file = try? AppSiteAssociation(parsing: bytes) else {
                return Verdict(reason: "the file does not read")
            }
            let match = file.match(for: appID, link: link)
            return switch match.decision {
            case .opens: Verdict(rule: match.rule)
            case .excluded:
                Verdict(
                    reason: "apple-app-site-association excludes the link for \(appID)",
                    rule: match.rule,
                    excludes: true
                )
            case .notListed:
                Verdict(reason: "apple-app-site-association does not list the link for \(appID)", rule: match.rule)
            }
        }
    }

    /// What the host's assetlinks.json, with the files it includes, says of the link for `package` (through a statement
    /// listing one of `fingerprints`, when there are any).
    func android(_ package: String, fingerprints: [String]) -> Verdict {
        stored(.android) { bytes in
            guard var file = try? AssetLinks(parsing: bytes) else { return Verdict(reason: "the file does not read") }
            file.add(cache.included(.android, host: host, trust: trust))
            let match = file.match(for: package, fingerprints: fingerprints, link: link)
            switch match.decision {
            case .opens: return Verdict(rule: match.rule)
            case .excluded:
                return Verdict(reason: "assetlinks.json's rules exclude the link for \(package)", rule: match.rule)
            case .notListed:
                guard file.lists(package, fingerprints: fingerprints) else {
                    let with = fingerprints.isEmpty ? "" : " with a fingerprint of web.androidFingerprints"
                    return Verdict(reason: "assetlinks.json does not list \(package)\(with)")
                }
                return Verdict(reason: "assetlinks.json's rules do not admit the link for \(package)")
            }
        }
    }

    /// What `read` makes of the cached `file` of the host, or why there is none to read.
    private func stored(_ file: AssociationFile, _ read: ([UInt8]) -> Verdict) -> Verdict {
        switch cache.stored(file, host: host, trust: trust, now: now) {
        case .fresh(let bytes), .stale(let bytes, _): read(bytes)
        case .missing(let why): Verdict(reason: "\(file.rawValue): \(why)")
        }
    }
}

extension LinkURL {
    /// The host as the association cache names it: with its port when it has one.
    var authority: String { hostname + (port.map { ":\($0)" } ?? "") }
}
