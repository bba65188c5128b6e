import Foundation

/// `web_passthrough_ms` and `ratio_web_passthrough_vs_minimal`: what a clicked web link that is no app's costs once
/// `linkd register --web` took web links. `linkd open --web URL` (read apps.d and the cache, decide, check the
/// loop rule, start the browser detached) against `linkd-mini-client --exec`, a static Glibc-only program that only
/// execs the same browser command: the launch linkd stands in front of. Both are timed from start to exit, the
/// browser being `/bin/true` (its `Exec=/bin/true --new-tab %u`), interleaved, each link a new one.
enum WebPassthroughBenchmark {
    static func run(linkd: String, client: String, world: OpenBenchmark.World) throws -> [(String, String)] {
        var environment = world.environment
        let data = world.root.appendingPathComponent("data")
        let applications = data.appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let entry =
            "[Desktop Entry]\nType=Application\nName=Bench browser\nExec=/bin/true --new-tab %u\n"
            + "MimeType=x-scheme-handler/http;x-scheme-handler/https;\n"
        try Data(entry.utf8).write(to: applications.appendingPathComponent("bench-browser.desktop"))
        let list = "[Default Applications]\nx-scheme-handler/https=bench-browser.desktop\n"
        try Data(list.utf8).write(to: world.root.appendingPathComponent("config/mimeapps.list"))
        environment["XDG_DATA_HOME"] = data.path
        environment["XDG_DATA_DIRS"] = world.root.appendingPathComponent("system").path
        environment["XDG_CACHE_HOME"] = world.root.appendingPathComponent("cache").path
        environment["HOME"] = world.root.path
        _ = OpenBenchmark.timed(linkd, ["register", "--web"], environment)
        let rounds = 201
        var passthrough: [Double] = []
        var minimal: [Double] = []
        for round in 0..<rounds {
            let link = "https://www.example.org/articles/\(round)?utm_source=mail#section-2"
            passthrough.append(OpenBenchmark.timed(linkd, ["open", "--web", link], environment))
            minimal.append(
                OpenBenchmark.timed(client, ["--exec", "/bin/true", "--new-tab", link + "-m"], environment)
            )
        }
        let linkdMedian = OpenBenchmark.median(passthrough)
        let minimalMedian = OpenBenchmark.median(minimal)
        return [
            ("web_passthrough_ms", String(format: "%.2f", linkdMedian)),
            ("minimal_browser_exec_ms", String(format: "%.2f", minimalMedian)),
            ("ratio_web_passthrough_vs_minimal", String(format: "%.2f", linkdMedian / minimalMedian)),
        ]
    }
}
