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
    /// The path on the host the kept file came from (``AssociationFile/paths``).
    var source: String
    /// The identity the file must list (`TEAMID.bundle.id`, or an Android package).
    let identity: String
    /// The JSON path of that identity in the app's file.
    let path: String
    let verdict: Verdict
    /// The parts of the file that could not be read and were left out, the rest standing (`PATH: PROBLEM`).
    var leftOut: [String] = []
    /// Whether the file was fetched through the app's own CA file or proxy, and so verifies that app alone.
    var isOwnTrust = false

    /// What a file's bytes (with the files it includes) say of an identity: whether they list it, and the parts left
    /// out; `nil`: no such file.
    typealias Reading = @Sendable ([UInt8], [AssetLinks.Included]) -> (lists: Bool, leftOut: [String])?

    /// The files `app` needs of each of its hosts: the identity, its JSON path, and how a file's bytes read for it.
    static func wanted(by web: WebConfig) -> [(file: AssociationFile, identity: String, path: String, read: Reading)] {
        var wanted: [(AssociationFile, String, String, Reading)] = []
        if let appID = web.appleAppID {
            wanted.append(
                (
                    .apple, appID, "$.web.appleAppId",
                    { bytes, _ in
                        (try? AppSiteAssociation(parsing: bytes)).map { file in
                            (file.details.contains { $0.appIDs.contains(appID) }, file.warnings.map(\.description))
                        }
                    }
                )
            )
        }
        if let package = web.androidPackage {
            let fingerprints = web.androidFingerprints
            let identity = package + (fingerprints.isEmpty ? "" : " with a fingerprint the app expects")
            wanted.append(
                (
                    .android, identity, fingerprints.isEmpty ? "$.web.androidPackage" : "$.web.androidFingerprints",
                    { bytes, included in
                        guard var file = try? AssetLinks(parsing: bytes) else { return nil }
                        file.add(included)
                        return (file.lists(package, fingerprints: fingerprints), file.warnings.map(\.description))
                    }
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
                wanted(by: web).map { file, identity, path, read in
                    var reading: (lists: Bool, leftOut: [String])?
                    let verdict: Verdict
                    let included = { cache.included(file, host: host, trust: trust) }
                    switch cache.stored(file, host: host, trust: trust, now: now) {
                    case .fresh(let bytes):
                        reading = read(bytes, included())
                        verdict = reading.map { $0.lists ? .verified : .notListed } ?? .unreadable
                    case .stale(let bytes, let failure):
                        reading = read(bytes, included())
                        verdict = reading.map { $0.lists ? .stale(failure) : .notListed } ?? .unreadable
                    case .missing(let why): verdict = .notFetched(why)
                    }
                    return WebHostStatus(
                        app: app.app,
                        host: host,
                        file: file,
                        source: cache.source(file, host: host, trust: trust),
                        identity: identity,
                        path: path,
                        verdict: verdict,
                        leftOut: reading?.leftOut ?? [],
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

    /// The file's address, `https://HOST/.well-known/…` (or where the kept file came from).
    var address: String { "https://\(host)\(source)" }

    /// `notes.example.com: verified for com.example.Notes (apple-app-site-association)`, and the like.
    var line: String {
        let about = "\(host): \(file.rawValue)" + (source == file.path ? "" : " (at \(source))")
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
