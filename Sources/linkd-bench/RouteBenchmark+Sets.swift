import Foundation
import LinkdRouting

/// Each link set of ``LinkSets`` (and the six) parsed by linkd and by ada in the same rounds, and parsed and routed
/// by linkd at 1,000 patterns.
extension RouteBenchmark {
    static func linkSets() -> [(String, String)] {
        var results: [(String, String)] = []
        let ada: AdaParser?
        switch AdaParser.load() {
        case .success(let loaded):
            ada = loaded
            results.append(("ada", AdaParser.path))
        case .failure(let missing):
            ada = nil
            results.append(("ada", "not installed (\(missing.reason)); scripts/install-ada builds it; ada skipped"))
        }
        for (name, links) in [("six", BenchLinks.all), ("realistic", LinkSets.realistic), ("short", LinkSets.short)] {
            let router = makeRouter(claiming: links, patterns: 1_000)
            let buffers = links.map { link in
                let bytes = Array(link.utf8CString.dropLast())
                let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: bytes.count)
                _ = buffer.initialize(from: bytes)
                return UnsafeBufferPointer(buffer)
            }
            defer { for buffer in buffers { buffer.deallocate() } }
            var bodies: [(Int) -> Int] = [
                { index in (try? LinkURL(parsing: links[index]))?.layoutProbe ?? -1 },
                { index in (try? router.route(LinkURL(parsing: links[index])))?.value ?? -1 },
            ]
            if let ada { bodies.append { index in ada.parse(buffers[index]) } }
            let medians = measure(Array(links.indices), bodies)
            results.append(("links_\(name)", String(links.count)))
            results.append(("link_bytes_mean_\(name)", String(links.map(\.utf8.count).reduce(0, +) / links.count)))
            results.append(("ns_per_link_\(name)", format(medians[0])))
            results.append(("ns_parse_route_1000_\(name)", format(medians[1])))
            guard ada != nil else { continue }
            results.append(("ns_ada_parse_\(name)", format(medians[2])))
            results.append(("ratio_vs_ada_parse_\(name)", format(medians[2] / medians[0], digits: 2)))
            results.append(("ratio_parse_route_1000_vs_ada_parse_\(name)", format(medians[2] / medians[1], digits: 2)))
        }
        return results
    }

    /// A router with `count` patterns: one for the authority and path of each link that parses and has a host
    /// (each such link then routes, unless its parameters are refused), then fillers.
    static func makeRouter(claiming links: [String], patterns count: Int) -> Router<BenchRoute> {
        var router = Router<BenchRoute>()
        var seen: Set<String> = []
        for link in links {
            guard let parsed = try? LinkURL(parsing: link), let host = parsed.host else { continue }
            let pattern =
                parsed.scheme + "://" + host.description + (parsed.port.map { ":\($0)" } ?? "")
                + parsed.pathname
            guard seen.insert(pattern).inserted else { continue }
            do {
                try router.add(pattern) { match throws(RouteError) in .reset(match.parameters.count) }
            } catch {
                preconditionFailure("pattern '\(pattern)' of '\(link)': \(error)")
            }
        }
        for index in seen.count..<count {
            let filler = "app\(index).example://note/{id}"
            guard (try? router.add(filler, build: { _ throws(RouteError) in .filler(index) })) != nil else {
                preconditionFailure("filler pattern parses")
            }
        }
        // A link refused for its parameters (conflicting duplicates) stays refused; no link with a host is unmatched.
        for link in links where (try? LinkURL(parsing: link))?.host != nil {
            if case .failure(.unmatched) = Result(catching: { () throws(RouteError) in try router.route(link) }) {
                preconditionFailure("'\(link)' routes")
            }
        }
        return router
    }
}
