import Foundation
import LinkdRouting

/// `linkd-bench route-sets-profile`: each realistic link alone, linkd's parse next to ada's, slowest relative to
/// ada first, then the totals by kind: where linkd loses to ada. With a kind (`route-sets-profile 'IP host'`) or the start of
/// links (`route-sets-profile http://[`), only linkd's parse of those links, in a loop, for `perf record`.
extension RouteBenchmark {
    static func profileSets(kind: String? = nil) {
        if let kind {
            // Only linkd's parse of the links of one kind, for three seconds: for a profiler to attribute.
            let links = LinkSets.realisticByKind.filter { $0.kind == kind || $0.link.hasPrefix(kind) }.map(\.link)
            precondition(!links.isEmpty, "no realistic links of the kind '\(kind)'")
            let end = ContinuousClock.now + .seconds(3)
            var sink = 0
            while ContinuousClock.now < end {
                for _ in 0..<1_000 { for link in links { sink &+= (try? LinkURL(parsing: link))?.layoutProbe ?? -1 } }
            }
            print("sink \(sink)")
            return
        }
        guard case .success(let ada) = AdaParser.load() else {
            print("ada not installed: scripts/install-ada builds it")
            return
        }
        var rows: [(kind: String, link: String, linkd: Double, ada: Double)] = []
        for (kind, link) in LinkSets.realisticByKind {
            let bytes = Array(link.utf8CString.dropLast())
            let medians = bytes.withUnsafeBufferPointer { buffer in
                measure(
                    [link],
                    rounds: 9,
                    repeats: 2_000,
                    [{ (try? LinkURL(parsing: $0))?.layoutProbe ?? -1 }, { _ in ada.parse(buffer) }]
                )
            }
            rows.append((kind, link, medians[0], medians[1]))
        }
        for row in rows.sorted(by: { $0.ada / $0.linkd < $1.ada / $1.linkd }) {
            print(
                "\(format(row.ada / row.linkd, digits: 2))  linkd \(format(row.linkd)) ns  ada \(format(row.ada)) ns"
                    + "  \(row.link.utf8.count) B  \(row.kind)  \(row.link.prefix(90))"
            )
        }
        for kind in Set(rows.map(\.kind)).sorted() {
            let ofKind = rows.filter { $0.kind == kind }
            let (linkd, ada) = (ofKind.map(\.linkd).reduce(0, +), ofKind.map(\.ada).reduce(0, +))
            print(
                "kind \(kind): \(ofKind.count) links, linkd \(format(linkd)) ns, ada \(format(ada)) ns in all, "
                    + "ada/linkd \(format(ada / linkd, digits: 2))"
            )
        }
    }
}
