package import LinkdConfig
import LinkdRouting
package import LinkdSession
import LinkdSystem

/// The association files of the apps' web links, fetched when the configuration is read — never when a link is
/// clicked, which reads the cache alone (see `linkd open`). Each app with a `web` section has, for each `https` host
/// its links claim, the files its identity needs fetched when they are due (``AssociationCache/isDue(_:host:now:)``),
/// one at a time, in this loop beside the daemon's other work.
package struct AssociationRefresh: Sendable {
    /// One file of one host, and how it is fetched: with the system's trust, or an app's own.
    package struct Target: Sendable, Equatable {
        package let host: String
        package let file: AssociationFile
        package let trust: AssociationTrust?
    }

    let cache: AssociationCache
    let log: DaemonLog
    private let readings: AsyncStream<[AppConfig]>
    private let input: AsyncStream<[AppConfig]>.Continuation

    init(cache: AssociationCache, log: DaemonLog) {
        self.cache = cache
        self.log = log
        (readings, input) = AsyncStream.makeStream(of: [AppConfig].self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for the files of `apps` (a configuration just read); a later reading replaces one not yet taken up.
    func refresh(_ apps: [AppConfig]) {
        input.yield(apps)
    }

    /// The files `apps` need: for each app with a `web` section, each `https` host its links claim (with its port
    /// when it has one), the apple-app-site-association when it names `appleAppId`, the assetlinks.json when it names
    /// `androidPackage`.
    package static func targets(of apps: [AppConfig]) -> [Target] {
        var targets: [Target] = []
        for app in apps {
            guard let web = app.web else { continue }
            let hosts = app.webHosts
            var files: [AssociationFile] = []
            if web.appleAppID != nil { files.append(.apple) }
            if web.androidPackage != nil { files.append(.android) }
            for host in hosts {
                for file in files {
                    let trust = AssociationTrust(app: app.app, caFile: web.caFile, proxy: web.proxy)
                    let target = Target(host: host, file: file, trust: trust)
                    if !targets.contains(target) { targets.append(target) }
                }
            }
        }
        return targets
    }

    /// Takes up each reading until the daemon stops: the files that are due are fetched, and what came of each is
    /// logged (the host and the file, never a link).
    func run() async {
        for await apps in readings {
            let targets = Self.targets(of: apps)
            var due = 0
            for target in targets where !Task.isCancelled {
                let now = Double(WallClock.seconds)
                guard cache.isDue(target.file, host: target.host, trust: target.trust, now: now) else { continue }
                due += 1
                let fetcher = AssociationFetcher(caFile: target.trust?.caFile, proxy: target.trust?.proxy)
                let result = await fetcher.fetch(target.file, host: target.host)
                do throws(SystemError) {
                    try cache.record(result, of: target.file, host: target.host, trust: target.trust, now: now)
                } catch {
                    log.warning("the association files cannot be kept: \(error)")
                }
                switch result {
                case .success: log.info("\(target.host): \(target.file.rawValue) fetched")
                case .failure(let failure):
                    log.warning("\(target.host): \(target.file.rawValue) not fetched: \(failure)")
                }
            }
            if !targets.isEmpty { log.info("association files: \(due) of \(targets.count) were due") }
        }
    }
}
