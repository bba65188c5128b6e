import Foundation
import LinkdRouting
import Testing

/// Runs every absolute case of web-platform-tests' `urltestdata.json` through ``LinkURL``.
@Suite struct WPTConformanceTests {
    struct Case {
        var input: String
        var expected: [String: String]?
    }

    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/urltestdata.json")
        guard let data = try? Data(contentsOf: url),
            let entries = try? JSONSerialization.jsonObject(with: data) as? [Any]
        else { return [] }
        return entries.compactMap { entry -> Case? in
            guard let object = entry as? [String: Any], let input = object["input"] as? String else { return nil }
            let base = object["base"] as? String
            guard base == nil || carriesOwnScheme(input, base: base) else { return nil }
            if object["failure"] as? Bool == true { return Case(input: input, expected: nil) }
            return Case(input: input, expected: object.compactMapValues { $0 as? String })
        }
    }()

    /// Whether `input` starts with a scheme of its own that makes `base` irrelevant to the standard's parser.
    static func carriesOwnScheme(_ input: String, base: String?) -> Bool {
        guard let colon = input.firstIndex(of: ":"), let first = input.first, first.isASCII, first.isLetter else {
            return false
        }
        let scheme = input[..<colon].lowercased()
        guard scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
            return false
        }
        let special = ["http", "https", "ws", "wss", "ftp", "file"]
        let baseScheme = base.flatMap { $0.split(separator: ":").first.map { $0.lowercased() } }
        return !(special.contains(scheme) && scheme == baseScheme)
    }

    @Test func fixtureIsLoaded() {
        #expect(Self.cases.count > 500)
    }

    @Test func acceptedInputsReadExactlyAsWHATWG() {
        var mismatches: [String] = []
        var acceptedFailures: [String] = []
        var acceptedDespiteRule: [String] = []
        var accepted = 0
        var valid = 0
        var refusedByRule = 0
        var refusedOtherwise: [String] = []
        for testCase in Self.cases {
            let result = Result { () throws(RouteError) in try LinkURL(parsing: testCase.input) }
            guard let expected = testCase.expected else {
                if case .success(let link) = result { acceptedFailures.append("\(testCase.input) -> \(link.href)") }
                continue
            }
            valid += 1
            switch result {
            case .success(let link):
                accepted += 1
                if RuleClassifier.isRefusedByRule(testCase.input, expected: expected) {
                    acceptedDespiteRule.append(testCase.input)
                }
                let actual: [String: String] = [
                    "href": link.href, "protocol": link.protocol, "username": link.username,
                    "password": link.password, "hostname": link.hostname, "port": link.portText,
                    "pathname": link.pathname, "search": link.search, "hash": link.hash,
                ]
                for (key, value) in actual where expected[key] != value {
                    mismatches.append("\(testCase.input): \(key) '\(value)' != '\(expected[key] ?? "")'")
                }
            case .failure(let error):
                if RuleClassifier.isRefusedByRule(testCase.input, expected: expected) {
                    refusedByRule += 1
                } else {
                    refusedOtherwise.append("\(testCase.input) [\(error.refusal?.reason.rawValue ?? "")]")
                }
            }
        }
        let eligible = valid - refusedByRule
        print("wpt_valid_absolute: \(valid)")
        print("wpt_refused_by_rule: \(refusedByRule)")
        print("wpt_accepted: \(accepted) of \(eligible) not refused by rule")
        for line in refusedOtherwise { print("wpt_refused_otherwise: \(line)") }
        #expect(mismatches == [])
        #expect(acceptedFailures == [])
        #expect(acceptedDespiteRule == [])
        #expect(eligible > 0 && Double(accepted) >= 0.9 * Double(eligible))
    }
}
