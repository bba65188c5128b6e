import Foundation
import LinkdRouting

/// `linkd-bench route`: strict parse + route of realistic reset links against 10, 100 and 1,000 patterns, next to
/// Foundation's `URLComponents(string:)` on the same links, measured in the same run.
enum RouteBenchmark {
    enum BenchRoute: Sendable {
        case reset(Int)
        case filler(Int)
    }

    /// A router with `count` patterns: the four the links use, then fillers on other schemes, hosts and paths.
    static func makeRouter(patterns count: Int) throws -> Router<BenchRoute> {
        var router = Router<BenchRoute>()
        let real = [
            "com.example.notes://reset", "https://notes.example.com/reset", "https://notes.example.com/auth/confirm",
            "http://localhost:3000/",
        ]
        for (index, pattern) in real.enumerated() {
            try router.add(pattern) { match throws(RouteError) in
                .reset(index + match.parameters.count)
            }
        }
        for index in real.count..<count {
            let pattern =
                switch index % 3 {
                case 0: "app\(index).example://note/{id}"
                case 1: "https://h\(index).example.com/item/{id}/edit"
                default: "com.example.notes://section\(index)/{rest...}"
                }
            try router.add(pattern) { match throws(RouteError) in .filler(try match.capture("id", as: Int.self)) }
        }
        return router
    }

    /// Nanoseconds per link for each body: the median of `rounds` timed passes over `links`, each pass repeated
    /// `repeats` times. The bodies take turns within each round, so that noise on the machine lands on all of them.
    static func measure<Link>(
        _ links: [Link],
        rounds: Int = 31,
        repeats: Int = 200,
        _ bodies: [(Link) -> Int]
    ) -> [Double] {
        var sink = 0
        var samples = [[Double]](repeating: [], count: bodies.count)
        for _ in 0..<rounds {
            for (index, body) in bodies.enumerated() {
                let start = ContinuousClock.now
                for _ in 0..<repeats {
                    for link in links { sink &+= body(link) }
                }
                let elapsed = ContinuousClock.now - start
                let nanoseconds =
                    Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
                samples[index].append(nanoseconds / Double(repeats * links.count))
            }
        }
        if sink == 42 { print("") }
        return samples.map { $0.sorted()[$0.count / 2] }
    }

    static func measure(_ links: [String], rounds: Int = 31, _ body: @escaping (String) -> Int) -> Double {
        measure(links, rounds: rounds, [body])[0]
    }

    static func run() {
        let links = BenchLinks.all
        var results: [(String, String)] = [("links", String(links.count))]
        results.append(("link_bytes_mean", String(links.map(\.utf8.count).reduce(0, +) / links.count)))
        var bodies: [(String) -> Int] = []
        for count in [10, 100, 1_000] {
            guard let router = try? makeRouter(patterns: count) else { preconditionFailure("bench patterns parse") }
            for link in links {
                guard case .reset = try? router.route(link) else { preconditionFailure("bench link \(link) routes") }
            }
            bodies.append { link in
                switch try? router.route(LinkURL(parsing: link)) {
                case .reset(let value), .filler(let value): value
                case nil: -1
                }
            }
        }
        bodies.append { link in URLComponents(string: link)?.host?.utf8.count ?? -1 }
        let medians = measure(links, bodies)
        let (at10, at100, at1000, baseline) = (medians[0], medians[1], medians[2], medians[3])
        results.append(("ns_per_link_10", format(at10)))
        results.append(("ns_per_link_100", format(at100)))
        results.append(("ns_per_link_1000", format(at1000)))
        results.append(("ns_per_link_urlcomponents", format(baseline)))
        results.append(("ratio_vs_urlcomponents", format(baseline / at1000, digits: 2)))
        results.append(("ratio_1000_vs_10", format(at1000 / at10, digits: 2)))
        results += misses()
        results += linkSets()
        for (name, value) in results { print("\(name): \(value)") }
    }

    static func profile() {
        guard let router = try? makeRouter(patterns: 1_000) else { preconditionFailure("bench patterns parse") }
        let perLink = measure(BenchLinks.all, rounds: 40) { link in
            if case .reset(let value) = try? router.route(LinkURL(parsing: link)) { value } else { -1 }
        }
        print("ns_per_link_1000: \(format(perLink))")
        let parseOnly = measure(BenchLinks.all, rounds: 40) { link in
            (try? LinkURL(parsing: link))?.layoutProbe ?? -1
        }
        print("phase_parse_ns: \(format(parseOnly))")  // the parser splits the parameters too
        let withParameters = measure(BenchLinks.all, rounds: 40) { link in
            (try? LinkURL(parsing: link).parameters())?.count ?? -1
        }
        print("phase_parse_parameters_ns: \(format(withParameters))")
        let parsed = BenchLinks.all.compactMap { try? LinkURL(parsing: $0) }
        var index = 0
        let routeOnly = measure(BenchLinks.all, rounds: 40) { _ in
            index = (index + 1) % parsed.count
            if case .reset(let value) = try? router.route(parsed[index]) { return value }
            return -1
        }
        print("phase_route_parsed_ns: \(format(routeOnly))")
        let urlComponents = measure(BenchLinks.all, rounds: 40) { link in
            URLComponents(string: link)?.host?.utf8.count ?? -1
        }
        print("baseline_urlcomponents_ns: \(format(urlComponents))")
        // Each link alone: where the time of a long token link and of a short one goes.
        for (number, link) in BenchLinks.all.enumerated() {
            guard let parsedLink = try? LinkURL(parsing: link) else { preconditionFailure("bench link parses") }
            let phases = measure(
                [link],
                rounds: 15,
                repeats: 2_000,
                [
                    { (try? LinkURL(parsing: $0))?.layoutProbe ?? -1 },
                    { _ in (try? parsedLink.parameters())?.count ?? -1 },
                    { _ in if case .reset(let value) = try? router.route(parsedLink) { value } else { -1 } },
                ]
            )
            print(
                "link_\(number + 1)_bytes_\(link.utf8.count): parse (parameters split) \(format(phases[0])) ns, "
                    + "parameters() \(format(phases[1])) ns, route of the parsed link \(format(phases[2])) ns"
            )
        }
    }

    static func format(_ value: Double, digits: Int = 0) -> String {
        String(format: "%.\(digits)f", value)
    }
}

extension LinkURL {
    /// Something cheap that depends on the parse, so the optimiser keeps it.
    var layoutProbe: Int { port.map(Int.init) ?? (hasOpaquePath ? 1 : 0) }
}
