import LinkdConfig
import LinkdSession
import LinkdSystem
import LinkdWeb

/// What `linkd check` says of the apps' `web` sections: for each `https` host an app's links claim, an association file
/// its identity needs that does not list it, or that cannot be had — each at the key of that identity in the app's
/// file — and, as a warning, one that lists it but is over a day old because it could not be fetched again. The files
/// come from the cache, fetched first when they are due, as the daemon fetches them. A file with parts that cannot be
/// read, which are left out while the rest stands, gets a warning for each part.
enum WebCheck {
    /// The problems of `apps`' web sections.
    static func problems(of apps: [AppConfig], cache: AssociationCache) async -> [ConfigError] {
        let now = Double(WallClock.seconds)
        await WebHostStatus.refresh(apps, cache: cache, now: now)
        var locations: [String: JSONLocations] = [:]
        return WebHostStatus.all(of: apps, cache: cache, now: now).flatMap { status -> [ConfigError] in
            let leftOut = status.leftOut.map { part in
                ("\(status.address) has a part that cannot be read, left out (the rest stands): \(part)", true)
            }
            let problems = leftOut + (verdictProblem(of: status).map { [$0] } ?? [])
            // The app's file is read for the places to name only when there is something to say.
            guard !problems.isEmpty, let file = apps.first(where: { $0.app == status.app })?.file else { return [] }
            let scanned =
                locations[file] ?? JSONLocations(scanning: FileSystem.contents(of: file, limit: 1 << 20) ?? [])
            locations[file] = scanned
            return problems.map { problem, isWarning in
                ConfigError(
                    file: file,
                    position: scanned.value(at: status.path),
                    path: status.path,
                    problem: problem,
                    isWarning: isWarning
                )
            }
        }
    }

    /// What `status`'s verdict says is wrong, and whether it is only a warning; `nil` when the host is verified.
    private static func verdictProblem(of status: WebHostStatus) -> (problem: String, isWarning: Bool)? {
        let problem: String
        var isWarning = false
        switch status.verdict {
        case .verified: return nil
        case .stale(let failure):
            problem =
                "\(status.address) is over a day old and could not be fetched again"
                + (failure.map { " (\($0))" } ?? "") + "; it is used until it is 7 days old"
            isWarning = true
        case .notListed: problem = "\(status.address) does not list \(status.identity)"
        case .unreadable: problem = "\(status.address) is not such a file"
        case .notFetched(let why): problem = "\(status.address) cannot be had: \(why)"
        }
        return (problem, isWarning)
    }
}
