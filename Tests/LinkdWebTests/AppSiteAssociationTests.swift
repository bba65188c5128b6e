import LinkdRouting
import LinkdWeb
import Testing

/// The reading of apple-app-site-association files, on Apple's documented examples: the legacy `paths` (first match
/// wins, `NOT `, `*` and `?`, case-sensitive) and `components` (`/`, `?` as a pattern or a dictionary, `#`,
/// `exclude`, `caseSensitive` and `percentEncoded` with their defaults, substitution variables).
@Suite struct AppSiteAssociationTests {
    static let legacy = """
        { "applinks": { "apps": [],
            "details": [
              { "appID": "ABCDE12345.com.example.mail", "paths": [ "NOT /account/*", "/inbox/*", "/m/????", "/" ] },
              { "appID": "ABCDE12345.com.example.docs", "paths": [ "*" ] } ] } }
        """

    static let components = """
        { "applinks": {
            "defaults": { "caseSensitive": false },
            "substitutionVariables": { "section": [ "buy", "sell" ] },
            "details": [ {
                "appIDs": [ "ABCDE12345.com.example.app", "ABCDE12345.com.example.app.beta" ],
                "defaults": { "percentEncoded": true },
                "components": [
                  { "#": "no_universal_links", "exclude": true, "comment": "site-wide opt-out marker" },
                  { "/": "/help/website/*", "exclude": true },
                  { "/": "/$(section)/*", "comment": "/buy/... and /sell/..." },
                  { "/": "/help/*", "?": { "articleNumber": "????" }, "caseSensitive": true } ] } ] },
          "webcredentials": { "apps": [ "ABCDE12345.com.example.app" ] } }
        """

    static let mail = "ABCDE12345.com.example.mail"
    static let docs = "ABCDE12345.com.example.docs"
    static let app = "ABCDE12345.com.example.app"

    private func file(_ text: String) throws -> AppSiteAssociation {
        try AppSiteAssociation(parsing: Array(text.utf8))
    }

    private func decision(
        _ file: AppSiteAssociation,
        _ appID: String,
        _ link: String
    ) throws -> AppSiteAssociation.Decision {
        file.decision(for: appID, link: try LinkURL(parsing: link))
    }

    @Test(arguments: [
        ("https://mail.example.com/inbox/42", mail, AppSiteAssociation.Decision.opens),
        ("https://mail.example.com/", mail, .opens),
        ("https://mail.example.com/m/abcd", mail, .opens),
        ("https://mail.example.com/account/settings", mail, .excluded),
        // Too short for `????`: the mail app's entry does not match, and the docs app's `*` takes it.
        ("https://mail.example.com/m/abc", mail, .notListed),
        ("https://mail.example.com/m/abc", docs, .opens),
        // Case-sensitive: `/Inbox/` is not `/inbox/`.
        ("https://mail.example.com/Inbox/42", mail, .notListed),
        // The mail app's exclusion keeps the link from the mail app alone.
        ("https://mail.example.com/account/settings", docs, .opens),
        // The legacy paths look at the path alone.
        ("https://mail.example.com/inbox/42?x=1#top", mail, .opens),
        ("https://mail.example.com/inbox/42", "OTHERTEAM.com.example.mail", .notListed),
    ])
    func legacyPathsDecideInOrder(_ link: String, _ appID: String, _ expected: AppSiteAssociation.Decision) throws {
        #expect(try decision(file(Self.legacy), appID, link) == expected)
    }

    @Test(arguments: [
        ("https://shop.example.com/buy/shoes", AppSiteAssociation.Decision.opens),
        ("https://shop.example.com/SELL/bike", .opens),  // caseSensitive false at the file's level
        ("https://shop.example.com/rent/flat", .notListed),
        ("https://shop.example.com/buy/shoes#no_universal_links", .excluded),
        ("https://shop.example.com/help/website/faq", .excluded),
        ("https://shop.example.com/help/topic?articleNumber=1234", .opens),
        ("https://shop.example.com/help/topic?articleNumber=123", .notListed),
        ("https://shop.example.com/help/topic", .notListed),  // a missing item is "", which `????` does not match
        ("https://shop.example.com/help/topic?articleNumber=1234&articleNumber=12", .notListed),  // every one must
        ("https://shop.example.com/help/topic?other=1&articleNumber=9876", .opens),
        ("https://shop.example.com/HELP/topic?articleNumber=1234", .notListed),  // this component is case-sensitive
    ])
    func componentsDecideInOrder(_ link: String, _ expected: AppSiteAssociation.Decision) throws {
        let file = try file(Self.components)
        #expect(try decision(file, Self.app, link) == expected)
        #expect(try decision(file, Self.app + ".beta", link) == expected)
        #expect(try decision(file, "ABCDE12345.com.example.other", link) == .notListed || expected != .opens)
    }

    private func oneComponent(_ component: String) throws -> AppSiteAssociation {
        try file(#"{"applinks": {"details": [{"appIDs": ["T.a"], "components": [\#(component)]}]}}"#)
    }

    @Test func questionStarIsOneOrMoreAndStarIsAnyRun() throws {
        let file = try oneComponent(#"{"/": "/m/?*"}"#)
        #expect(try decision(file, "T.a", "https://x.example/m/a") == .opens)
        #expect(try decision(file, "T.a", "https://x.example/m/abc/def") == .opens)
        #expect(try decision(file, "T.a", "https://x.example/m/") == .notListed)
        let stars = try oneComponent(#"{"/": "*a*b*c*d*e*f*g*h*"}"#)
        #expect(try decision(stars, "T.a", "https://x.example/" + String(repeating: "ab", count: 2_000)) == .notListed)
        #expect(try decision(stars, "T.a", "https://x.example/abcdefgh") == .opens)
    }

    @Test func aQueryPatternMatchesTheWholeQuery() throws {
        let file = try oneComponent(#"{"/": "/reset", "?": "token=*&tokenId=*"}"#)
        #expect(try decision(file, "T.a", "https://x.example/reset?token=t1&tokenId=i1") == .opens)
        #expect(try decision(file, "T.a", "https://x.example/reset?tokenId=i1&token=t1") == .notListed)
        #expect(try decision(file, "T.a", "https://x.example/reset") == .notListed)
    }

    @Test func percentEncodedFalseComparesTheDecodedText() throws {
        let decoded = try oneComponent(#"{"/": "/café/*", "percentEncoded": false}"#)
        #expect(try decision(decoded, "T.a", "https://x.example/caf%C3%A9/menu") == .opens)
        let encoded = try oneComponent(#"{"/": "/café/*"}"#)
        #expect(try decision(encoded, "T.a", "https://x.example/caf%C3%A9/menu") == .notListed)
        let asWritten = try oneComponent(#"{"/": "/caf%C3%A9/*"}"#)
        #expect(try decision(asWritten, "T.a", "https://x.example/caf%C3%A9/menu") == .opens)
    }

    @Test func predefinedVariablesMatchTheirClassOrCodes() throws {
        let file = try oneComponent(#"{"/": "/$(lang)/$(region)/v$(digit)/*"}"#)
        #expect(try decision(file, "T.a", "https://x.example/en/US/v2/page") == .opens)
        #expect(try decision(file, "T.a", "https://x.example/fr/CA/v9/") == .opens)
        #expect(try decision(file, "T.a", "https://x.example/english/US/v2/page") == .notListed)
        #expect(try decision(file, "T.a", "https://x.example/en/ZZ/v2/page") == .notListed)
        #expect(try decision(file, "T.a", "https://x.example/en/US/vx/page") == .notListed)
    }

    @Test func componentsAreReadAndPathsIgnoredWhenBothAreThere() throws {
        let file = try file(
            #"{"applinks": {"details": [{"appID": "T.a", "paths": ["*"], "components": [{"/": "/only/*"}]}]}}"#
        )
        #expect(try decision(file, "T.a", "https://x.example/only/1") == .opens)
        #expect(try decision(file, "T.a", "https://x.example/other") == .notListed)
    }

    /// A substitution variable is one step of alternatives, never multiplied out: a pattern with many values matches
    /// as it reads, an exclusion with them still excludes, and only a file whose patterns take more steps together
    /// than ``AppSiteAssociation/stepLimit`` is refused, naming the entry where they pass it.
    @Test func variablesAreOneStepAndAFileTooLargeToMatchIsRefused() throws {
        let values = (0..<20).map { "\"v\($0)\"" }.joined(separator: ", ")
        let file = try file(
            #"{"applinks": {"substitutionVariables": {"v": [\#(values)]}, "#
                + #""details": [{"appID": "T.a", "components": [{"/": "/$(v)/$(v)/*"}, {"/": "/v1/*"}]}, "#
                + #"{"appID": "T.b", "components": [{"/": "/x/$(v)/*", "exclude": true}, {"/": "*"}]}]}}"#
        )
        #expect(try decision(file, "T.a", "https://x.example/v2/v19/x") == .opens)
        #expect(try decision(file, "T.a", "https://x.example/v1/v20/x") == .opens)  // by the second rule
        #expect(try decision(file, "T.a", "https://x.example/v20/v1/x") == .notListed)
        #expect(try decision(file, "T.b", "https://x.example/x/v3/y") == .excluded)
        #expect(try decision(file, "T.b", "https://x.example/x/w3/y") == .opens)
        // The hostile file: 16 values of 500 characters, used twice in each of 50 components.
        let letters = Array("abcdefghijklmnop")
        let long = letters.map { "\"" + String(repeating: $0, count: 500) + "\"" }
        let components = (0..<50).map { #"{"/": "/$(a)$(a)/\#($0)"}"# }.joined(separator: ", ")
        let hostile =
            #"{"applinks": {"substitutionVariables": {"a": [\#(long.joined(separator: ", "))]}, "#
            + #""details": [{"appID": "T.a", "components": [\#(components)]}]}}"#
        #expect(hostile.utf8.count < AppSiteAssociation.sizeLimit)
        // A file of plain patterns as large as a file may be is read: 4,000 paths of 30 characters.
        let paths = (10_000..<14_000).map { #""/section/\#($0)/page/*/item""# }
        let plain = #"{"applinks": {"details": [{"appID": "T.a", "paths": [\#(paths.joined(separator: ","))]}]}}"#
        #expect(plain.utf8.count < AppSiteAssociation.sizeLimit)
        #expect(try AppSiteAssociation(parsing: Array(plain.utf8)).steps > 100_000)
        #expect(
            throws: AssociationFileError(
                "$.applinks.details[0]",
                "the patterns up to here take 800190 steps, more than the 262144 a file may (a substitution variable "
                    + "counts all its values at each use)"
            )
        ) {
            try AppSiteAssociation(parsing: Array(hostile.utf8))
        }
    }

    @Test(arguments: [
        ("not json", "$", "not JSON"),
        (#"{"webcredentials": {}}"#, "$.applinks", "missing"),
        (#"{"applinks": {"details": 5}}"#, "$.applinks.details", "expected an array"),
        (#"{"applinks": {"details": [{"paths": ["*"]}]}}"#, "$.applinks.details[0]", "names no app"),
        (#"{"applinks": {"details": [{"appID": "T.a"}]}}"#, "$.applinks.details[0]", "neither"),
        (
            #"{"applinks": {"details": [{"appID": "T.a", "components": [{"/": 5}]}]}}"#,
            "$.applinks.details[0].components[0]./", "expected a string"
        ),
        (
            #"{"applinks": {"details": [{"appID": "T.a", "components": [{"exclude": "yes"}]}]}}"#,
            "$.applinks.details[0].components[0].exclude", "true or false"
        ),
        (
            #"{"applinks": {"substitutionVariables": [], "details": []}}"#, "$.applinks.substitutionVariables",
            "expected an object"
        ),
        (
            #"{"applinks": {"defaults": {"caseSensitive": "no"}, "details": []}}"#, "$.applinks.defaults.caseSensitive",
            "true or false"
        ),
    ])
    func aBrokenFileNamesThePartAtFault(_ text: String, _ path: String, _ problem: String) {
        #expect {
            try AppSiteAssociation(parsing: Array(text.utf8))
        } throws: { error in
            guard let error = error as? AssociationFileError else { return false }
            return error.path == path && error.problem.contains(problem)
        }
    }

    @Test func aFileOver128KiBIsRefused() {
        let padding = String(repeating: " ", count: AppSiteAssociation.sizeLimit)
        #expect(throws: AssociationFileError.self) {
            try AppSiteAssociation(parsing: Array((#"{"applinks": {"details": []}}"# + padding).utf8))
        }
    }
}
