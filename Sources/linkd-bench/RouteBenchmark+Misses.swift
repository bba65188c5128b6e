import Foundation
import LinkdRouting

/// Route misses next to hits: the bench links, parsed, and a variant of each that no pattern claims, each way a
/// link can miss (host, path segment, extra segment, deeper segment, port, scheme).
extension RouteBenchmark {
    static let missLinks: [String] = {
        let links = BenchLinks.all
        func replacing(_ link: String, _ old: String, _ new: String) -> String {
            guard let range = link.range(of: old) else { preconditionFailure("bench link holds '\(old)'") }
            return link.replacingCharacters(in: range, with: new)
        }
        return [
            replacing(links[0], "://reset#", "://rest#"),
            replacing(links[1], "/reset?", "/rest?"),
            replacing(links[2], "://reset?", "://reset/now?"),
            replacing(links[3], "/auth/confirm?", "/auth/confirmed?"),
            replacing(links[4], ":3000/", ":3001/"),
            replacing(links[5], "com.example.notes://", "org.example.other://"),
        ]
    }()

    /// `ns_route_hit_N` and `ns_route_miss_N` (the route of a parsed link at N patterns), the ratios the goals
    /// are on, and the cost of a miss whose explanation is read.
    static func misses() -> [(String, String)] {
        let hits = BenchLinks.all.map(parsed)
        let misses = missLinks.map(parsed)
        var bodies: [(Int) -> Int] = []
        var explained: Router<BenchRoute>?
        for count in [10, 100, 1_000] {
            guard let router = try? makeRouter(patterns: count) else { preconditionFailure("bench patterns parse") }
            for link in misses where (try? router.route(link)) != nil { preconditionFailure("\(link) misses") }
            bodies.append { index in route(router, hits[index % hits.count]) }
            bodies.append { index in route(router, misses[index % misses.count]) }
            explained = router
        }
        guard let explained else { preconditionFailure("a router was built") }
        bodies.append { (index: Int) -> Int in
            do {
                return try explained.route(misses[index % misses.count]).value
            } catch {
                return String(describing: error).utf8.count
            }
        }
        let medians = measure(Array(0..<hits.count), bodies)
        var results: [(String, String)] = []
        for (index, count) in [10, 100, 1_000].enumerated() {
            results.append(("ns_route_hit_\(count)", format(medians[2 * index])))
            results.append(("ns_route_miss_\(count)", format(medians[2 * index + 1])))
        }
        results.append(("ns_route_miss_explained_1000", format(medians[6])))
        results.append(("ratio_miss_vs_hit_1000", format(medians[5] / medians[4], digits: 2)))
        results.append(("ratio_miss_1000_vs_10", format(medians[5] / medians[1], digits: 2)))
        return results
    }

    private static func parsed(_ text: String) -> LinkURL {
        guard let link = try? LinkURL(parsing: text) else { preconditionFailure("bench link '\(text)' parses") }
        return link
    }

    private static func route(_ router: Router<BenchRoute>, _ link: LinkURL) -> Int {
        (try? router.route(link))?.value ?? -1
    }
}

extension RouteBenchmark.BenchRoute {
    var value: Int {
        switch self {
        case .reset(let value), .filler(let value): value
        }
    }
}
