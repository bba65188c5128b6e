import LinkdConfig
import LinkdSession
import LinkdWeb

/// What an app's web host says of the app: for each `https` host an app's links claim and each identity its `web`
/// section names (`appleAppId`, `androidPackage`), whether the host's association file, as the cache holds it,
/// lists that identity. `linkd register --web` and `linkd status` print it; `linkd check` reports what is not verified.
struct WebHostStatus: Equatable {
    /// Whether the host's file lists the app.
    enum Verdict: Equatable {
        /// It does, in a file fetched within a day.
        case verified
        /// It does, in a file older than a day that could not be fetched again (why, when a fetch failed).
        case stale(String?)
        /// The file is there but does not list the identity.
        case notListed
        /// The file is there but is no such file (not JSON, or not of its shape).
        case unreadable
        /// There is no usable file: why.
        case notFetched(String)

        /// Whether links of the host can go to the app.
        var isVerified: Bool {
            switch self {
            case .verified, .stale: true
            case .notListed, .unreadable, .notFetched: false
            }
        }
    }

    /// The app.
    let app: String
    /// The host, with its port when it has one.
    let host: String
    /// The file.
    let file: AssociationFile
    /// The identity the file must list (`TEAMID.bundle.id`, or an Android package).
    let identity: String
    /// The JSON path of that identity in the app's file.
    let path: String
    let verdict: Verdict
    /// Whether the file was fetched through the app's own CA file or proxy, and so verifies that app alone.
    var isOwnTrust = false

    /// The files `app` needs of each of its hosts: the identity, its JSON path, and whether a file's bytes list it.
    static func wanted(
        by web: WebConfig
    ) -> [(file: AssociationFile, identity: String, path: String, lists: ([UInt8]) -> Bool?)] {
        var wanted: [(AssociationFile, String, String, ([UInt8]) -> Bool?)] = []
        if let appID = web.appleAppID {
            wanted.append(
                (
                    .apple, appID, "$.web.appleAppId",
                    { bytes in
                        (try? AppSiteAssociation(parsing: bytes))?.details.contains { $0.appIDs.contains(appID) }
                            == true
                    }
                )
            )
        }
        if let package = web.androidPackage {
            wanted.append(
                (
                    .android, package, "$.web.androidPackage",
                    { bytes in (try? AssetLinks(parsing: bytes))?.handlesAllLinks(for: package) }
                )
            )
        }
        return wanted
    }

    /// The status of each host of each app of `apps` with a `web` section, from `cache` at `now`.
    static func all(of apps: [AppConfig], cache: AssociationCache, now: Double) -> [WebHostStatus] {
        apps.flatMap { app -> [WebHostStatus] in
            guard let web = app.web else { return [] }
            let trust = AssociationTrust(app: app.app, caFile: web.caFile, proxy: web.proxy)
            return app.webHosts.flatMap { host in
                wanted(by: web).map { file, identity, path, lists in
                    let verdict: Verdict =
                        switch cache.stored(file, host: host, trust: trust, now: now) {
                        case .fresh(let bytes): lists(bytes).map { $0 ? .verified : .notListed } ?? .unreadable
                        case .stale(let bytes, let failure):
                            lists(bytes).map { $0 ? .stale(failure) : .notListed } ?? .unreadable
                        case .missing(let why): .notFetched(why)
                        }
                    return WebHostStatus(
                        app: app.app,
                        host: host,
                        file: file,
                        identity: identity,
                        path: path,
                        verdict: verdict,
                        isOwnTrust: trust != nil
                    )
                }
            }
        }
    }

    /// Fetches the files of `apps`' hosts that are due (``AssociationTarget/targets(of:)``, the daemon's list too).
    static func refresh(_ apps: [AppConfig], cache: AssociationCache, now: Double) async {
        for target in AssociationTarget.targets(of: apps) {
            await cache.refresh(target.file, host: target.host, trust: target.trust, now: now)
        }
    }

    /// The file's address, `https://HOST/.well-known/…`.
    var address: String { "https://\(host)\(file.path)" }

    /// `notes.example.com: verified for com.example.Notes (apple-app-site-association)`, and the like.
    var line: String {
        let about = "\(host): \(file.rawValue)"
        let alone = isOwnTrust ? " alone, through its own caFile or proxy" : ""
        return switch verdict {
        case .verified: "\(about) lists \(identity): verified for \(app)\(alone)"
        case .stale(let failure):
            "\(about) lists \(identity): verified for \(app)\(alone), from a file over a day old"
                + (failure.map { " (the last fetch failed: \($0))" } ?? "")
        case .notListed: "\(about) does not list \(identity): not verified, its links open in the browser"
        case .unreadable: "\(about) is not such a file: not verified, its links open in the browser"
        case .notFetched(let why): "\(about) not fetched (\(why)): not verified, its links open in the browser"
        }
    }
}
