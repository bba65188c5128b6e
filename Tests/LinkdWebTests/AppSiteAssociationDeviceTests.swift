import LinkdRouting
import LinkdWeb
import Testing

/// What a phone answers where Apple's pages are silent, as Apple's own matcher (`swcutil match` on macOS) answered the
/// probes recorded by the open-source engine blazingly-aasa (`conformance/oracle/swcutil-probes.tsv`,
/// `swcutil-gap-probes.tsv`, `docs/findings.md`): slashes at the ends of a path, `defaults` as a component, `appIDs`
/// over `appID`, a `?` object with a value that is no string, `details` as an object; and a file with a part that
/// cannot be read keeps its other parts.
@Suite struct AppSiteAssociationDeviceTests {
    private func decision(_ json: String, _ appID: String = "T.a", link: String) throws -> AppSiteAssociation.Decision {
        try AppSiteAssociation(parsing: Array(json.utf8)).decision(for: appID, link: try LinkURL(parsing: link))
    }

    private func components(_ components: String, defaults: String = "{}") -> String {
        #"{"applinks": {"defaults": \#(defaults), "details": [{"appIDs": ["T.a"], "components": [\#(components)]}]}}"#
    }

    // swcutil-gap-probes.tsv: trailing slashes, a leading slash left out, `/x/*` and `/x`, no slash added.
    @Test(arguments: [
        (#"{"/": "/buy/"}"#, "/buy", AppSiteAssociation.Decision.opens),
        (#"{"/": "/buy"}"#, "/buy/", .opens),
        (#"{"/": "/buy"}"#, "/buy//", .opens),
        (#"{"/": "abc"}"#, "/abc", .opens),  // Apple's Components page writes a pattern without its slash
        (#"{"/": "/buy/*"}"#, "/buy", .opens),
        (#"{"/": "/buy/*"}"#, "/buy/shoes", .opens),
        (#"{"/": "/buy/*"}"#, "/buyer", .notListed),
        (#"{"/": "/id/????"}"#, "/id/481", .notListed),  // no slash is added to the path
        (#"{"/": "/id/????"}"#, "/id/4812", .opens),
        (#"{"/": "/id/????"}"#, "/id/4812/", .opens),
        (#"{"/": "/"}"#, "/", .opens),
        (#"{"/": "/"}"#, "/x", .notListed),
    ])
    func slashesAtThePathsEndsAsAPhoneReadsThem(
        _ component: String,
        _ path: String,
        _ expected: AppSiteAssociation.Decision
    ) throws {
        #expect(try decision(components(component), link: "https://shop.example.com" + path) == expected)
    }

    /// The legacy `paths` read their slashes the same way.
    @Test func legacyPathsReadSlashesTheSameWay() throws {
        let file = #"{"applinks": {"details": [{"appID": "T.a", "paths": ["NOT /account/*", "help/"]}]}}"#
        #expect(try decision(file, link: "https://shop.example.com/help") == .opens)
        #expect(try decision(file, link: "https://shop.example.com/account") == .excluded)
    }

    // findings.md, "defaults is a components object": `/`, `?`, `#` and `exclude` apply from either level, and a
    // rule's own keys override them.
    @Test(arguments: [
        (#"{"/": "/a/*"}"#, #"{"exclude": true}"#, "/a/x", AppSiteAssociation.Decision.excluded),
        (#"{"/": "/a/*", "exclude": false}"#, #"{"exclude": true}"#, "/a/x", .opens),
        (##"{"#": "buy"}"##, #"{"/": "/shop/*"}"#, "/shop/x#buy", .opens),
        (##"{"#": "buy"}"##, #"{"/": "/shop/*"}"#, "/other#buy", .notListed),
        (#"{"/": "/other"}"#, #"{"/": "/shop/*"}"#, "/other", .opens),
        (#"{"/": "*"}"#, #"{"?": {"ref": "?*"}}"#, "/x?ref=mail", .opens),
        (#"{"/": "*"}"#, #"{"?": {"ref": "?*"}}"#, "/x", .notListed),
    ])
    func theFilesDefaultsAreAComponent(
        _ component: String,
        _ defaults: String,
        _ link: String,
        _ expected: AppSiteAssociation.Decision
    ) throws {
        let file = components(component, defaults: defaults)
        #expect(try decision(file, link: "https://shop.example.com" + link) == expected)
    }

    @Test func anEntrysDefaultsAreAComponentOverTheFiles() throws {
        let file = #"""
            {"applinks": {"defaults": {"#": "app"}, "details": [{"appIDs": ["T.a"], "defaults": {"/": "/docs/*"},
              "components": [{}, {"/": "/help", "#": "*"}]}]}}
            """#
        #expect(try decision(file, link: "https://d.example.com/docs/1#app") == .opens)
        #expect(try decision(file, link: "https://d.example.com/docs/1#web") == .notListed)
        #expect(try decision(file, link: "https://d.example.com/help#web") == .opens)
    }

    // findings.md and st-tech/universal-links-test: an entry with both takes `appIDs` alone.
    @Test func appIDsWinOverAppID() throws {
        let file = #"{"applinks": {"details": [{"appID": "T.old", "appIDs": ["T.new"], "components": [{"/": "*"}]}]}}"#
        #expect(try decision(file, "T.new", link: "https://x.example.com/a") == .opens)
        #expect(try decision(file, "T.old", link: "https://x.example.com/a") == .notListed)
    }

    // swcutil-gap-probes.tsv: `{"a": "1", "flag": true}` matches `?a=2`; the rule keeps its `/`.
    @Test func aQueryObjectWithAValueThatIsNoStringMatchesAnyQuery() throws {
        let text = components(#"{"/": "/p/*", "?": {"a": "1", "flag": true}}"#)
        let file = try AppSiteAssociation(parsing: Array(text.utf8))
        #expect(file.decision(for: "T.a", link: try LinkURL(parsing: "https://x.example.com/p/1?a=2")) == .opens)
        #expect(file.decision(for: "T.a", link: try LinkURL(parsing: "https://x.example.com/q?a=1")) == .notListed)
        #expect(file.warnings.map(\.path) == ["$.applinks.details[0].components[0].?.flag"])
    }

    // findings.md: the iOS 9 form, entries by app id.
    @Test func detailsWrittenAsAnObjectByAppID() throws {
        let file = #"{"applinks": {"details": {"T.a": {"paths": ["/x/*"]}, "T.b": {"paths": ["*"]}}}}"#
        #expect(try decision(file, "T.a", link: "https://x.example.com/x/1") == .opens)
        #expect(try decision(file, "T.b", link: "https://x.example.com/y") == .opens)
        #expect(try decision(file, "T.a", link: "https://x.example.com/y") == .notListed)
    }

    /// An entry that cannot be read is left out, named, and the entries beside it stand; one whose rule cannot be
    /// read is left out whole, so an exclusion it might hold never opens the app.
    @Test func anEntryThatCannotBeReadIsLeftOutAndTheRestStand() throws {
        let text = #"""
            {"applinks": {"details": [
              {"appIDs": ["T.a"], "components": [{"/": "/account/*", "exclude": "yes"}, {"/": "*"}]},
              {"appIDs": ["T.b"], "components": [{"/": 5}]},
              {"appIDs": ["T.c"], "components": [{"/": "/c/*"}]}]}}
            """#
        let file = try AppSiteAssociation(parsing: Array(text.utf8))
        #expect(file.details.map(\.appIDs) == [["T.c"]])
        #expect(
            file.warnings.map(\.description) == [
                "$.applinks.details[0].components[0].exclude: expected true or false; its entry is left out",
                "$.applinks.details[1].components[0]./: expected a string; its entry is left out",
            ]
        )
        #expect(file.decision(for: "T.c", link: try LinkURL(parsing: "https://x.example.com/c/1")) == .opens)
        #expect(file.decision(for: "T.a", link: try LinkURL(parsing: "https://x.example.com/account/1")) == .notListed)
    }

    /// A substitution variable that cannot be read leaves out the entries that name it, not the others.
    @Test func aVariableThatCannotBeReadLeavesOutTheEntriesThatNameIt() throws {
        let text = #"""
            {"applinks": {"substitutionVariables": {"s": [1], "t": ["buy"]}, "details": [
              {"appIDs": ["T.a"], "components": [{"/": "/$(s)/*"}]},
              {"appIDs": ["T.b"], "components": [{"/": "/$(t)/*"}]}]}}
            """#
        let file = try AppSiteAssociation(parsing: Array(text.utf8))
        #expect(file.details.map(\.appIDs) == [["T.b"]])
        #expect(
            file.warnings.map(\.path) == [
                "$.applinks.substitutionVariables.s", "$.applinks.details[0].components[0]./",
            ]
        )
        #expect(file.decision(for: "T.b", link: try LinkURL(parsing: "https://x.example.com/buy/1")) == .opens)
    }
}
