import Foundation
import LinkdWeb
import Testing

/// Google's Digital Asset Links compatibility tests (`Fixtures/dal-compatibility-v1.json`, converted by
/// `scripts/dal-compatibility` from github.com/google/digitalassetlinks `compatibility-tests/v1`, Apache License 2.0,
/// `Fixtures/dal-compatibility-v1.LICENSE`), run against linkd's reading of assetlinks.json: every case linkd can ask —
/// a site's statement list (and the files it includes) about an Android app — must give Google's answer.
///
/// linkd asks one relation, `delegate_permission/common.handle_all_urls`; a case about another relation R is asked
/// with R and `handle_all_urls` swapped throughout its files (a renaming, which keeps what the case tests). A check
/// case's answer is whether the statements list the app with the case's fingerprint; a list case's, the app statements
/// (package, fingerprint) of each relation its files give Android apps. Not run: query parsing (`1000-`: linkd has no
/// query to parse; apps.d's `androidFingerprints` is checked instead), statement lists in APKs (`3000-`, `apk`),
/// sites over http (linkd, as Android's verifier, fetches over https alone), and targets that are web sites (linkd
/// asks only for apps).
@Suite struct DigitalAssetLinksCompatibilityTests {
    static let handleAll = "delegate_permission/common.handle_all_urls"

    struct Outcome {
        var run = 0
        var agree = 0
        var fetchErrorsAgree = 0
        var fetchErrorsDiffer: [String] = []
        var notRun: [String: Int] = [:]
        var disagreements: [String] = []
    }

    static func load() throws -> (source: String, groups: [[String: Any]]) {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/dal-compatibility-v1.json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        return (try #require(root["source"] as? String), try #require(root["groups"] as? [[String: Any]]))
    }

    /// `text` with the JSON strings `"a"` and `"b"` swapped.
    static func swap(_ text: String, _ a: String, _ b: String) -> String {
        guard a != b else { return text }
        let marker = "\u{1}swap\u{1}"
        return text.replacingOccurrences(of: "\"\(a)\"", with: marker)
            .replacingOccurrences(of: "\"\(b)\"", with: "\"\(a)\"")
            .replacingOccurrences(of: marker, with: "\"\(b)\"")
    }

    /// The statement list `site` serves in `web`, read as linkd reads it with the files it includes (from `web` too,
    /// or not there: a 404), `relation` swapped with `handle_all_urls`; `nil` when there is no usable list (no file,
    /// no https, or a file refused whole).
    static func read(site: String, web: [String: String], relation: String) -> AssetLinks? {
        guard site.hasPrefix("https://"), let body = web[site + "/.well-known/assetlinks.json"] else { return nil }
        let swapped = { (text: String) in Array(swap(text, relation, handleAll).utf8) }
        guard var links = try? AssetLinks(parsing: swapped(body)) else { return nil }
        links.add(
            links.includes.map { include in
                AssetLinks.Included(
                    address: include.address,
                    result: web[include.address].map { .success(swapped($0)) }
                        ?? .failure(AssociationFailure("HTTP 404"))
                )
            }
        )
        return links
    }

    @Test func googlesCompatibilityTestsGiveGooglesAnswers() throws {
        let (source, groups) = try Self.load()
        var outcome = Outcome()
        for group in groups {
            let file = group["file"] as? String ?? ""
            let web = group["web"] as? [String: String] ?? [:]
            for item in group["cases"] as? [[String: Any]] ?? [] {
                let label = "\(group["name"] as? String ?? "") — \(item["name"] as? String ?? "")"
                let site = item["source"] as? String
                let why: String? =
                    if file.hasPrefix("1000-") {
                        "query parsing"
                    } else if group["apk"] as? Bool == true || site == nil {
                        "statement lists in APKs"
                    } else if site?.hasPrefix("https://") != true {
                        "sites over http (read over https alone)"
                    } else {
                        nil
                    }
                if let why {
                    outcome.notRun[why, default: 0] += 1
                    continue
                }
                let answer: (agrees: Bool, warned: Bool)?
                if item["kind"] as? String == "check" {
                    answer = Self.check(item, site: site ?? "", web: web)
                } else {
                    answer = Self.list(item, site: site ?? "", web: web)
                }
                guard let answer else {
                    outcome.notRun["web site targets", default: 0] += 1
                    continue
                }
                outcome.run += 1
                if answer.agrees { outcome.agree += 1 } else { outcome.disagreements.append(label) }
                if answer.warned == (item["outcome"] as? String == "FETCH_ERROR") {
                    outcome.fetchErrorsAgree += 1
                } else {
                    outcome.fetchErrorsDiffer.append(label)
                }
            }
        }
        let notRun = outcome.notRun.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print(
            "Digital Asset Links compatibility (\(source)): \(outcome.run) cases run, \(outcome.agree) give Google's "
                + "answer, \(outcome.fetchErrorsAgree) its FETCH_ERROR or not (a warning or refusal; not: "
                + "\(outcome.fetchErrorsDiffer.joined(separator: "; "))); not run: \(notRun)"
        )
        #expect(outcome.run >= 54, "the fixture holds the cases linkd can ask")
        #expect(outcome.disagreements.isEmpty, "\(outcome.disagreements)")
    }

    /// A check case about an Android app: whether linkd's statements list it with the case's fingerprint, as Google
    /// answers; `nil` for a web site target.
    static func check(_ item: [String: Any], site: String, web: [String: String]) -> (agrees: Bool, warned: Bool)? {
        guard let target = item["target"] as? [String: Any], let package = target["package"] as? String,
            let fingerprint = target["fingerprint"] as? String
        else { return nil }
        let relation = item["relation"] as? String ?? handleAll
        let links = read(site: site, web: web, relation: relation)
        let listed = links?.lists(package, fingerprints: [fingerprint]) ?? false
        return (listed == (item["response"] as? Bool ?? false), links.map { !$0.warnings.isEmpty } ?? true)
    }

    /// A list case: for each relation the files give Android apps (or the case's relation), the (package,
    /// fingerprint) pairs linkd's statements hold are those Google lists; `nil` when the files give apps none.
    static func list(_ item: [String: Any], site: String, web: [String: String]) -> (agrees: Bool, warned: Bool)? {
        let relations = (item["relation"] as? String).map { [$0] } ?? (item["androidRelations"] as? [String] ?? [])
        guard !relations.isEmpty else { return nil }
        let expected = item["response"] as? [[String: Any]] ?? []
        var (agrees, warned) = (true, false)
        for relation in relations {
            let links = read(site: site, web: web, relation: relation)
            let pairs = Set(
                (links?.statements ?? []).flatMap { statement in
                    statement.fingerprints.map { statement.package + " " + $0 }
                }
            )
            let wanted = Set(
                expected.compactMap { statement -> String? in
                    guard statement["relation"] as? String == relation, let package = statement["package"] as? String,
                        let fingerprint = statement["fingerprint"] as? String
                    else { return nil }
                    return package + " " + fingerprint
                }
            )
            agrees = agrees && pairs == wanted
            warned = warned || (links.map { !$0.warnings.isEmpty } ?? true)
        }
        return (agrees, warned)
    }
}
