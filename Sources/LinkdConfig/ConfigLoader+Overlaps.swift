extension ConfigLoader {
    /// A problem for each link of an app that another app, earlier in file-name order, claims too: the earlier one
    /// wins, and the problem, at the later link's `match`, names both apps and both patterns (the daemon logs it
    /// each time it reads the configuration).
    static func overlaps(in apps: [AppConfig]) -> [ConfigError] {
        var problems: [ConfigError] = []
        for (index, app) in apps.enumerated() {
            for link in app.links {
                let winner = apps[..<index].lazy.flatMap { earlier in
                    earlier.links.lazy.filter { $0.match.overlaps(link.match) }.map { (earlier, $0) }
                }.first
                guard let (earlier, claim) = winner else { continue }
                problems.append(
                    ConfigError(
                        file: app.file,
                        position: link.position,
                        path: link.path + ".match",
                        problem: "'\(link.match)' of '\(app.app)' overlaps '\(claim.match)' of '\(earlier.app)' in "
                            + "'\(earlier.file)', which wins: it comes first in file-name order"
                    )
                )
            }
        }
        return problems
    }
}
