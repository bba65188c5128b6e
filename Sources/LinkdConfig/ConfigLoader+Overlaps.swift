extension ConfigLoader {
    /// A problem for each link of an app that another app, earlier in folder, then file-name order, claims too: the
    /// earlier one wins, and the problem, at the later link's `match`, names both apps, both patterns and the winner's
    /// file, and says why it comes first (the daemon logs it each time it reads the configuration).
    static func overlaps(in apps: [AppConfig]) -> [ConfigError] {
        var problems: [ConfigError] = []
        for (index, app) in apps.enumerated() {
            for link in app.links {
                let winner = apps[..<index].lazy.flatMap { earlier in
                    earlier.links.lazy.filter { $0.match.overlaps(link.match) }.map { (earlier, $0) }
                }.first
                guard let (earlier, claim) = winner else { continue }
                let why =
                    folder(of: earlier.file) == folder(of: app.file)
                    ? "it comes first in file-name order" : "its folder is read first"
                problems.append(
                    ConfigError(
                        file: app.file,
                        position: link.position,
                        path: link.path + ".match",
                        problem: "'\(link.match)' of '\(app.app)' overlaps '\(claim.match)' of '\(earlier.app)' in "
                            + "'\(earlier.file)', which wins: \(why)"
                    )
                )
            }
        }
        return problems
    }

    /// The folder part of `file`, up to its last `/`.
    private static func folder(of file: String) -> Substring {
        file[..<(file.lastIndex(of: "/") ?? file.startIndex)]
    }
}
