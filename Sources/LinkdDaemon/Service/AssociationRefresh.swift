import LinkdConfig
import LinkdRouting
import LinkdSession
import LinkdSystem
import LinkdWeb

/// The association files of the apps' web links, fetched when the configuration is read — never when a link is
/// clicked, which reads the cache alone (see `linkd open`). Each app with a `web` section has, for each `https` host
/// its links claim, the files its identity needs fetched when they are due (``AssociationCache/isDue(_:host:now:)``),
/// one at a time, in this loop beside the daemon's other work.
struct AssociationRefresh: Sendable {
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

    /// Takes up each reading until the daemon stops: the files that are due are fetched, and what came of each is
    /// logged (the host and the file, never a link).
    func run() async {
        for await apps in readings {
            let targets = AssociationTarget.targets(of: apps)
            var due = 0
            for target in targets where !Task.isCancelled {
                let now = Double(WallClock.seconds)
                guard cache.isDue(target.file, host: target.host, trust: target.trust, now: now) else { continue }
                due += 1
                let fetcher = AssociationFetcher(caFile: target.trust?.caFile, proxy: target.trust?.proxy)
                let result = await fetcher.fetch(target.file, host: target.host)
                do throws(SystemError) {
                    try cache.record(fetch: result, of: target.file, host: target.host, trust: target.trust, now: now)
                } catch {
                    log.warning("the association files cannot be kept: \(error)")
                }
                switch result {
                case .success(let fetch):
                    let from = fetch.path == target.file.path ? "" : " from \(fetch.path)"
                    log.info("\(target.host): \(target.file.rawValue) fetched\(from)")
                case .failure(let failure):
                    log.warning("\(target.host): \(target.file.rawValue) not fetched: \(failure)")
                }
            }
            if !targets.isEmpty { log.info("association files: \(due) of \(targets.count) were due") }
        }
    }
}
