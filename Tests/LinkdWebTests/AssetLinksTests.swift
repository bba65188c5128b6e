import Foundation
import LinkdRouting
import LinkdWeb
import Testing

/// The reading of assetlinks.json as Google's Digital Asset Links compatibility tests read it
/// (`google/digitalassetlinks`, `compatibility-tests/v1`): a statement that cannot be read is left out and named, the
/// rest standing; a statement for an app counts only with a well-formed certificate fingerprint; `include` statements
/// are followed one level deep over https alone (AOSP's StatementService); Android 15's dynamic rules narrow the links a
/// statement admits (developer.android.com, "Configure website associations and dynamic rules").
@Suite struct AssetLinksTests {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let other = "AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99"

    /// A `handle_all_urls` statement for `package`, with `fingerprints` (JSON text) and `extra` members.
    static func statement(_ package: String, fingerprints: String? = nil, _ extra: String = "") -> String {
        let prints = fingerprints ?? #"["\#(Self.fingerprint)"]"#
        return #"{"relation": ["delegate_permission/common.handle_all_urls"], \#(extra)"#
            + #""target": {"namespace": "android_app", "package_name": "\#(package)", "#
            + #""sha256_cert_fingerprints": \#(prints)}}"#
    }

    private func read(_ statements: String...) throws -> AssetLinks {
        try AssetLinks(parsing: Array(("[" + statements.joined(separator: ", ") + "]").utf8))
    }

    @Test func thePackagesWithHandleAllURLsAreRead() throws {
        let links = try read(
            Self.statement("com.example.notes"),
            #"{"relation": ["delegate_permission/common.get_login_creds"], "#
                + #""target": {"namespace": "android_app", "package_name": "com.example.passwords"}}"#,
            #"{"relation": ["delegate_permission/common.handle_all_urls"], "#
                + #""target": {"namespace": "web", "site": "https://example.com"}}"#
        )
        #expect(links.packages == ["com.example.notes"])
        #expect(links.lists("com.example.notes"))
        #expect(!links.lists("com.example.passwords"))
        #expect(links.warnings.isEmpty)
    }

    /// Compatibility tests: an unreadable statement (an empty object, an empty `package_name`, a missing `relation`,
    /// a statement that is no object) is skipped, and a valid statement beside it still answers true.
    @Test(arguments: [
        ("{}", "$[0].relation", "expected an array"),
        ("1", "$[0]", "expected an object"),
        (#"{"target": {"namespace": "android_app", "package_name": "x.y"}}"#, "$[0].relation", "expected an array"),
        (
            #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app"}}"#,
            "$[0].target.package_name", "non-empty string"
        ),
        (Self.statement(""), "$[0].target.package_name", "non-empty string"),
        (#"{"relation": ["delegate_permission/common.handle_all_urls"], "target": 3}"#, "$[0].target", "an object"),
    ])
    func anUnreadableStatementIsLeftOutAndTheRestStands(_ bad: String, _ path: String, _ problem: String) throws {
        let links = try read(bad, Self.statement("com.example.notes"))
        #expect(links.lists("com.example.notes"))
        let warning = try #require(links.warnings.first)
        #expect(links.warnings.count == 1)
        #expect(warning.path == path && warning.problem.contains(problem))
        #expect(warning.problem.hasSuffix("its statement is left out"))
    }

    /// Compatibility tests 2101–2125, transcribed onto an app's statement (theirs name web sites, which linkd does not
    /// ask about): a relation is `KIND/DETAIL` of lower-case letters, digits, `_` and `.`; a statement with any other
    /// relation string cannot be read, whatever else it lists. 2004: an include statement has nothing else.
    @Test(arguments: [
        "", "delegate_permission/*", "INVALID_KIND/write_on_the_walls", "/write_on_the_walls", "/",
        "write_on_the_walls",
        "delegate_permission", "delegate_permission/write_on_the_walls/foo", "delegate_permission,write_on_the_walls",
        "delegate_permission/", "delegate_permission/write on the walls", "delegate_permission/write+on+the+walls",
        "delegate_permission/write_on_the_walls!", "delegate_permission/write_on_the_WALLS",
        "delegate_permission/write_on_the_walls ", " delegate_permission/write_on_the_walls",
        "delegate_permission / write_on_the_walls",
    ])
    func aStatementWithAMalformedRelationIsLeftOut(_ relation: String) throws {
        let statement = Self.statement("com.example.notes").replacingOccurrences(
            of: #"["delegate_permission/common.handle_all_urls"]"#,
            with: #"["delegate_permission/common.handle_all_urls", "\#(relation)"]"#
        )
        let links = try read(statement, Self.statement("com.example.other"))
        #expect(!links.lists("com.example.notes"))
        #expect(links.warnings.map(\.path) == ["$[0].relation[1]"])
        let fine = try read(
            Self.statement("com.example.notes").replacingOccurrences(
                of: #"["delegate_permission/common.handle_all_urls"]"#,
                with: #"["delegate_permission/common.handle_all_urls", "navigate/org.example.yellow_brick_road2"]"#
            )
        )
        #expect(fine.lists("com.example.notes") && fine.warnings.isEmpty)
        let include = #"{"include": "https://h.example/a.json", "relation": [], "target": {}}"#
        let mixed = try read(include, Self.statement("com.example.notes"))
        #expect(mixed.includes.isEmpty && mixed.warnings.map(\.path) == ["$[0]"])
    }

    /// Compatibility tests: `sha256_cert_fingerprints` missing, empty, `[""]`, or not 32 colon-separated upper-case
    /// hex bytes makes the statement invalid — the host does not verify the app.
    @Test(arguments: [
        "", #""sha256_cert_fingerprints": [], "#, #""sha256_cert_fingerprints": [""], "#,
        #""sha256_cert_fingerprints": ["\#(Self.fingerprint.lowercased())"], "#,
        #""sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42"], "#,
        #""sha256_cert_fingerprints": ["\#(Self.fingerprint.replacingOccurrences(of: ":", with: ""))"], "#,
        #""sha256_cert_fingerprints": "\#(Self.fingerprint)", "#,
    ])
    func aStatementWithoutAWellFormedFingerprintDoesNotCount(_ prints: String) throws {
        let target = #"{"namespace": "android_app", "package_name": "com.example.notes", \#(prints)"x": 0}"#
        let bad = #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": \#(target)}"#
        let links = try read(bad, Self.statement("com.example.other"))
        #expect(!links.lists("com.example.notes"))
        #expect(
            links.decision(for: "com.example.notes", link: try LinkURL(parsing: "https://h.example/")) == .notListed
        )
        #expect(links.warnings.contains { $0.path.hasPrefix("$[0].target.sha256_cert_fingerprints") })
        #expect(links.lists("com.example.other"))
    }

    /// One malformed fingerprint beside a good one is named and left out; the statement stands with the good one.
    /// With the app's expected fingerprints, a statement counts only when it lists one of them.
    @Test func theAppsExpectedFingerprintsMustBeListed() throws {
        let links = try read(Self.statement("com.example.notes", fingerprints: #"["\#(Self.fingerprint)", "14:6d"]"#))
        #expect(links.lists("com.example.notes"))
        #expect(links.warnings.map(\.path) == ["$[0].target.sha256_cert_fingerprints[1]"])
        #expect(links.lists("com.example.notes", fingerprints: [Self.fingerprint, Self.other]))
        #expect(!links.lists("com.example.notes", fingerprints: [Self.other]))
        let link = try LinkURL(parsing: "https://notes.example.com/reset")
        #expect(links.decision(for: "com.example.notes", fingerprints: [Self.other], link: link) == .notListed)
        #expect(links.decision(for: "com.example.notes", fingerprints: [Self.fingerprint], link: link) == .opens)
    }

    /// A file is refused as a whole only when no part of it is usable.
    @Test(arguments: [
        ("{}", "$", "expected an array"),
        ("[1]", "$[0]", "expected an object"),
        (#"[{"target": {}}]"#, "$[0].relation", "expected an array"),
        ("[", "$", "not JSON"),
    ])
    func aFileWithNoUsablePartIsRefused(_ text: String, _ path: String, _ problem: String) {
        #expect {
            try AssetLinks(parsing: Array(text.utf8))
        } throws: { error in
            guard let error = error as? AssociationFileError else { return false }
            return error.path == path && error.problem.contains(problem)
        }
    }

    /// `include` statements name other files: https alone (AOSP refuses any other), at most ``AssetLinks/includeLimit``
    /// followed, none in an included file (one level deep).
    @Test func includesAreHTTPSAloneAndOneLevelDeep() throws {
        let links = try read(
            #"{"include": "https://other.example/.well-known/assetlinks.json"}"#,
            #"{"include": "http://other.example/.well-known/assetlinks.json"}"#,
            #"{"include": 7}"#,
            Self.statement("com.example.notes")
        )
        #expect(links.includes.map(\.address) == ["https://other.example/.well-known/assetlinks.json"])
        #expect(links.includes.map(\.path) == ["$[0].include"])
        #expect(links.warnings.map(\.path) == ["$[1].include", "$[2].include"])
        #expect(links.warnings[0].problem.contains("no https address"))
        let included = try AssetLinks(
            parsing: Array(#"[{"include": "https://third.example/a.json"}, \#(Self.statement("x.y"))]"#.utf8),
            isIncluded: true
        )
        #expect(included.includes.isEmpty && included.packages == ["x.y"])
        #expect(included.warnings.first?.problem.contains("not followed") == true)
        // An address is followed only as a URL is written (printable ASCII, at most 2,048 bytes): it is kept with the
        // file, and its state, one line per address.
        let long = try read(
            #"{"include": "https://h.example/\#(String(repeating: "a", count: 2_048))"}"#,
            #"{"include": "https://h.example/a b"}"#,
            Self.statement("x.y")
        )
        #expect(long.includes.isEmpty)
        #expect(long.warnings.map(\.path) == ["$[0].include", "$[1].include"])
        let many = (0...AssetLinks.includeLimit).map { #"{"include": "https://h\#($0).example/a.json"}"# }
        let capped = try AssetLinks(parsing: Array(("[" + many.joined(separator: ",") + "]").utf8))
        #expect(capped.includes.count == AssetLinks.includeLimit)
        #expect(capped.warnings.map(\.path) == ["$[\(AssetLinks.includeLimit)].include"])
    }

    /// An included file's statements count beside the file's own; one that could not be had, or not read, is named
    /// with its address and leaves the rest standing.
    @Test func includedFilesAddTheirStatementsAndABrokenOneLeavesTheRest() throws {
        var links = try read(#"{"include": "https://a.example/x.json"}"#, Self.statement("com.example.own"))
        links.add([
            .init(
                address: "https://a.example/x.json",
                result: .success(Array("[\(Self.statement("com.example.inc"))]".utf8))
            ),
            .init(address: "https://b.example/y.json", result: .failure(AssociationFailure("HTTP 404"))),
            .init(address: "https://c.example/z.json", result: .success(Array("{}".utf8))),
        ])
        #expect(links.packages == ["com.example.own", "com.example.inc"])
        #expect(
            links.warnings.map(\.description) == [
                "https://b.example/y.json: HTTP 404; its statements are left out",
                "https://c.example/z.json $: expected an array; its statements are left out",
            ]
        )
    }

    /// Android 15's dynamic rules (`relation_extensions` → `dynamic_app_link_components`): the first component that
    /// matches a link decides, an `exclude` one keeping it from the app, and a link no component matches is not the
    /// app's. The example is the one Android's page gives.
    @Test(arguments: [
        ("https://h.example/any?dl=1", AppSiteAssociation.Decision.opens),
        ("https://h.example/path1", .opens),
        ("https://h.example/path1#no_handle", .excluded),
        ("https://h.example/other?in_app=true", .opens),
        ("https://h.example/other#in_app", .opens),
        ("https://h.example/other", .excluded),
    ])
    func dynamicRulesNarrowTheLinksAStatementAdmits(_ link: String, _ expected: AppSiteAssociation.Decision) throws {
        let rules = #"""
            "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [
              {"?": {"dl": "*"}}, {"#": "no_handle", "exclude": true}, {"/": "/path1"},
              {"?": {"in_app": "true"}}, {"#": "in_app"}, {"/": "*", "exclude": true, "comments": "the rest"}]}},
            """#
        let links = try read(Self.statement("com.example.notes", rules))
        #expect(links.decision(for: "com.example.notes", link: try LinkURL(parsing: link)) == expected)
        #expect(links.lists("com.example.notes"))
    }

    /// Without a rule that matches, a link is not the app's; a statement whose rules cannot be read is left out whole,
    /// since without them it would admit links its site withholds.
    @Test func unmatchedOrUnreadableRulesAdmitNothing() throws {
        let narrow =
            #""relation_extensions": {"delegate_permission/common.handle_all_urls": "#
            + #"{"dynamic_app_link_components": [{"/": "/help/*"}]}}, "#
        let links = try read(Self.statement("com.example.notes", narrow))
        #expect(
            links.decision(for: "com.example.notes", link: try LinkURL(parsing: "https://h.example/help")) == .opens
        )
        #expect(
            links.decision(for: "com.example.notes", link: try LinkURL(parsing: "https://h.example/buy")) == .notListed
        )
        let broken =
            #""relation_extensions": {"delegate_permission/common.handle_all_urls": "#
            + #"{"dynamic_app_link_components": [{"/": 4}]}}, "#
        let left = try read(Self.statement("com.example.notes", broken), Self.statement("com.example.other"))
        #expect(!left.lists("com.example.notes"))
        #expect(
            left.warnings.map(\.path) == [
                "$[0].relation_extensions.delegate_permission/common.handle_all_urls.dynamic_app_link_components[0]./"
            ]
        )
    }
}
