import LinkdConfig
import LinkdSession
import LinkdSystem
import LinkdWeb

/// What `linkd check` says of the apps' `web` sections: for each `https` host an app's links claim, an association file
/// its identity needs that does not list it, or that cannot be had — each at the key of that identity in the app's
/// file. The files come from the cache, fetched first when they are due, as the daemon fetches them.
enum WebCheck {
    /// The problems of `apps`' web sections.
    static func problems(of apps: [AppConfig], cache: AssociationCache) async -> [ConfigError] {
        var problems: [ConfigError] = []
        for app in apps {
            guard let web = app.web else { continue }
            let locations = JSONLocations(scanning: FileSystem.contents(of: app.file, limit: 1 << 20) ?? [])
            var wanted: [(AssociationFile, path: String, listed: ([UInt8]) -> Bool, id: String)] = []
            if let appID = web.appleAppID {
                wanted.append(
                    (
                        .apple, "$.web.appleAppId",
                        { bytes in
                            (try? AppSiteAssociation(parsing: bytes))?.details.contains { $0.appIDs.contains(appID) }
                                == true
                        }, appID
                    )
                )
            }
            if let package = web.androidPackage {
                wanted.append(
                    (
                        .android, "$.web.androidPackage",
                        { bytes in
                            (try? AssetLinks(parsing: bytes))?.handlesAllLinks(for: package) == true
                        }, package
                    )
                )
            }
            for host in app.webHosts {
                for (file, path, listed, id) in wanted {
                    let now = Double(WallClock.seconds)
                    await cache.refresh(
                        file,
                        host: host,
                        with: AssociationFetcher(caFile: web.caFile, proxy: web.proxy),
                        now: now
                    )
                    let address = "https://\(host)\(file.path)"
                    let problem: String? =
                        switch cache.stored(file, host: host, now: now) {
                        case .fresh(let bytes), .stale(let bytes, _):
                            listed(bytes) ? nil : "\(address) does not list \(id)"
                        case .missing(let why): "\(address) cannot be had: \(why)"
                        }
                    guard let problem else { continue }
                    problems.append(
                        ConfigError(file: app.file, position: locations.value(at: path), path: path, problem: problem)
                    )
                }
            }
        }
        return problems
    }
}
