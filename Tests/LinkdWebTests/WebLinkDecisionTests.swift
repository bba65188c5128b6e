import Foundation
import LinkdConfig
import LinkdRouting
import LinkdSession
import LinkdWeb
import Testing

/// Where a clicked web link goes, from apps.d and the cached association files alone: the app when its site admits
/// the link for the app's identity (or the link is the app's own backend's emailed link), the browser otherwise, with
/// the reason.
@Suite struct WebLinkDecisionTests {
    static let apps = #"""
        {"app": "com.example.Notes",
         "backend": {"kind": "supabase", "url": "https://abcd.supabase.co", "apiKey": "anon"},
         "web": {"appleAppId": "ABCDE12345.com.example.notes"},
         "links": [{"match": "https://notes.example.com/reset", "format": "appservices", "action": "forward"},
                   {"match": "https://notes.example.com/old/reset", "action": "forward"},
                   {"match": "com.example.notes://reset", "format": "supabase", "action": "forward"}]}
        """#
    static let android = #"""
        {"app": "com.example.Droid", "web": {"androidPackage": "com.example.droid"},
         "links": [{"match": "https://droid.example.com/{path...}", "action": "forward"}]}
        """#
    static let plain = #"""
        {"app": "com.example.Plain", "links": [{"match": "https://plain.example.com/x", "action": "forward"}]}
        """#
    static let aasa = Array(
        #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.notes", "paths": ["NOT /old/*", "/*"]}]}}"#.utf8
    )
    static let assetlinks = Array("[\(AssetLinksTests.statement("com.example.droid"))]".utf8)
    static let day = 86_400.0

    /// The apps, and a cache holding the notes site's AASA and the droid site's assetlinks, fetched at 0.
    private func world() throws -> ([AppConfig], AssociationCache) {
        let apps = try [Self.apps, Self.android, Self.plain].map { text in
            var decoder = AppConfigDecoder(file: "app.json", programs: ProgramSearch(directories: []), actions: .linkd)
            let decoded = decoder.decode(Array(text.utf8))
            return try #require(decoded, "\(decoder.errors)")
        }
        let cache = AssociationCache(
            folder: FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)").path
        )
        try cache.record(.success(Self.aasa), of: .apple, host: "notes.example.com", now: 0)
        try cache.record(.success(Self.assetlinks), of: .android, host: "droid.example.com", now: 0)
        return (apps, cache)
    }

    private func decide(_ link: String, now: Double = 60) throws -> WebLinkDecision {
        let (apps, cache) = try world()
        defer { try? FileManager.default.removeItem(atPath: cache.folder) }
        return WebLinkDecision.decide(try LinkURL(parsing: link), apps: apps, cache: cache, now: now)
    }

    @Test func aLinkTheSiteListsForTheAppGoesToTheApp() throws {
        #expect(try decide("https://notes.example.com/reset?token=t&tokenId=i") == .app("com.example.Notes"))
        #expect(try decide("https://droid.example.com/anything/at/all") == .app("com.example.Droid"))
        // Three days old: still used while it is fetched again; eight days: no longer.
        #expect(
            try decide("https://notes.example.com/reset?token=t&tokenId=i", now: 3 * Self.day)
                == .app("com.example.Notes")
        )
        #expect(
            try decide("https://notes.example.com/reset?token=t&tokenId=i", now: 8 * Self.day)
                == .browser(
                    .notVerified(app: "com.example.Notes", "apple-app-site-association: the last good file is too old")
                )
        )
    }

    @Test func theAppsOwnBackendsEmailedLinkGoesToTheApp() throws {
        let link =
            "https://abcd.supabase.co/auth/v1/verify?token=pkce_1&type=recovery&redirect_to=com.example.notes://reset"
        #expect(try decide(link) == .app("com.example.Notes"))
    }

    @Test(arguments: [
        ("http://notes.example.com/reset", WebLinkDecision.browser(.notHTTPS)),
        ("https://elsewhere.example.org/reset", .browser(.unclaimed)),
        ("https://plain.example.com/x", .browser(.noWebSection(app: "com.example.Plain"))),
        (
            "https://notes.example.com/old/reset",
            .browser(
                .notVerified(
                    app: "com.example.Notes",
                    "apple-app-site-association excludes the link for ABCDE12345.com.example.notes"
                )
            )
        ),
    ])
    func everyOtherLinkGoesToTheBrowserWithItsReason(_ link: String, _ expected: WebLinkDecision) throws {
        #expect(try decide(link) == expected)
    }

    @Test func aHostWithoutItsFileIsNotVerified() throws {
        let (apps, cache) = try world()
        defer { try? FileManager.default.removeItem(atPath: cache.folder) }
        let empty = AssociationCache(folder: cache.folder + "-empty")
        let link = try LinkURL(parsing: "https://notes.example.com/reset?token=t&tokenId=i")
        #expect(
            WebLinkDecision.decide(link, apps: apps, cache: empty, now: 60)
                == .browser(.notVerified(app: "com.example.Notes", "apple-app-site-association: not fetched yet"))
        )
    }

    /// The path is matched as the site means it: writing an excluded path another way does not reach the app, and an
    /// app that also names its Android package gets no path its site's apple-app-site-association excludes.
    @Test(arguments: [
        "https://both.example.com/account/x", "https://both.example.com/%61ccount/x",
        "https://both.example.com//account/x", "https://both.example.com/account%2Fx",
        "https://both.example.com/other%2F..%2Faccount%2Fx", "https://both.example.com/%41ccount/x",
    ])
    func anExcludedPathStaysExcludedHoweverItIsWritten(_ link: String) throws {
        let both = #"""
            {"app": "com.example.Both",
             "web": {"appleAppId": "ABCDE12345.com.example.both", "androidPackage": "com.example.both"},
             "links": [{"match": "https://both.example.com/{path...}", "action": "forward"}]}
            """#
        var decoder = AppConfigDecoder(file: "both.json", programs: ProgramSearch(directories: []), actions: .linkd)
        let decoded = decoder.decode(Array(both.utf8))
        let app = try #require(decoded, "\(decoder.errors)")
        let cache = AssociationCache(
            folder: FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)").path
        )
        defer { try? FileManager.default.removeItem(atPath: cache.folder) }
        let aasa =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.both"], "#
            + #""components": [{"/": "/account/*", "exclude": true}, {"/": "*"}]}]}}"#
        let assetlinks = "[\(AssetLinksTests.statement("com.example.both"))]"
        try cache.record(.success(Array(aasa.utf8)), of: .apple, host: "both.example.com", now: 0)
        try cache.record(.success(Array(assetlinks.utf8)), of: .android, host: "both.example.com", now: 0)
        let decision = WebLinkDecision.decide(try LinkURL(parsing: link), apps: [app], cache: cache, now: 60)
        let excluded = link.hasSuffix("/%41ccount/x") == false
        if excluded {
            #expect(
                decision
                    == .browser(
                        .notVerified(
                            app: "com.example.Both",
                            "apple-app-site-association excludes the link for ABCDE12345.com.example.both"
                        )
                    )
            )
        } else {
            // Paths are case-sensitive by default: `/Account` is not `/account`, and the site admits it.
            #expect(decision == .app("com.example.Both"))
        }
        let admitted = WebLinkDecision.decide(
            try LinkURL(parsing: "https://both.example.com/accounts/x"),
            apps: [app],
            cache: cache,
            now: 60
        )
        #expect(admitted == .app("com.example.Both"))
    }

    /// An app that names only its Android package: its site's assetlinks.json with the files it includes decides,
    /// through a statement with a fingerprint the app expects (when it names any), narrowed by the statement's dynamic
    /// rules; the browser's reason says which.
    @Test(
        arguments: [
            // The host's own statement admits every link.
            ("[\(AssetLinksTests.statement("com.example.droid"))]", [], "/x", nil),
            // The statement is in an included file alone; an include that could not be had leaves it standing.
            (#"[{"include": "https://i.example/a.json"}, {"include": "https://i.example/b.json"}]"#, [], "/x", nil),
            // The app expects a fingerprint the statement does not list.
            (
                "[\(AssetLinksTests.statement("com.example.droid"))]", [AssetLinksTests.other], "/x",
                "assetlinks.json does not list com.example.droid with a fingerprint of web.androidFingerprints"
            ),
            ("[\(AssetLinksTests.statement("com.example.droid"))]", [AssetLinksTests.fingerprint], "/x", nil),
            // A statement without a well-formed fingerprint does not count.
            (
                "[\(AssetLinksTests.statement("com.example.droid", fingerprints: #"["14:6D"]"#))]", [], "/x",
                "the file does not read"
            ),
            // Dynamic rules: an excluded path, an admitted one, and one no rule matches.
            (
                "[\(AssetLinksTests.statement("com.example.droid", Self.rules))]", [], "/account/x",
                "assetlinks.json's rules exclude the link for com.example.droid"
            ),
            ("[\(AssetLinksTests.statement("com.example.droid", Self.rules))]", [], "/help/x", nil),
            (
                "[\(AssetLinksTests.statement("com.example.droid", Self.rules))]", [], "/buy",
                "assetlinks.json's rules do not admit the link for com.example.droid"
            ),
        ] as [(String, [String], String, String?)]
    )
    func androidSitesDecideWithTheirIncludesFingerprintsAndRules(
        _ file: String,
        _ fingerprints: [String],
        _ path: String,
        _ reason: String?
    ) throws {
        let prints =
            fingerprints.isEmpty ? "" : #", "androidFingerprints": ["\#(fingerprints.joined(separator: #"", ""#))"]"#
        let text = #"""
            {"app": "com.example.Droid", "web": {"androidPackage": "com.example.droid"\#(prints)},
             "links": [{"match": "https://droid.example.com/{path...}", "action": "forward"}]}
            """#
        var decoder = AppConfigDecoder(file: "droid.json", programs: ProgramSearch(directories: []), actions: .linkd)
        let decoded = decoder.decode(Array(text.utf8))
        let app = try #require(decoded, "\(decoder.errors)")
        let cache = AssociationCache(
            folder: FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)").path
        )
        defer { try? FileManager.default.removeItem(atPath: cache.folder) }
        let included = [
            AssetLinks.Included(
                address: "https://i.example/a.json",
                result: .success(Array("[\(AssetLinksTests.statement("com.example.droid"))]".utf8))
            ),
            AssetLinks.Included(address: "https://i.example/b.json", result: .failure(AssociationFailure("HTTP 404"))),
        ]
        let fetch = AssociationFetch(
            bytes: Array(file.utf8),
            path: AssociationFile.android.path,
            included: file.contains("include") ? included : []
        )
        try cache.record(fetch: .success(fetch), of: .android, host: "droid.example.com", now: 0)
        let decision = WebLinkDecision.decide(
            try LinkURL(parsing: "https://droid.example.com" + path),
            apps: [app],
            cache: cache,
            now: 60
        )
        #expect(
            decision
                == (reason.map { .browser(.notVerified(app: "com.example.Droid", $0)) } ?? .app("com.example.Droid"))
        )
    }

    static let rules =
        #""relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": "#
        + #"[{"/": "/account/*", "exclude": true}, {"/": "/help/*"}]}}, "#
}
