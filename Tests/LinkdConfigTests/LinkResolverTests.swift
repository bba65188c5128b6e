import Foundation
import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdTesting
import Testing

@Suite struct LinkResolverTests {
    /// The apps of `files`, which have no problems but the overlaps they are expected to have.
    private func apps(_ files: [String: String], overlaps: Int = 0) throws -> [AppConfig] {
        let tree = try TempTree()
        for (name, text) in files { try tree.write("apps.d/\(name)", text) }
        try tree.program("notes")
        let result = tree.loader(try tree.folder("apps.d")).load()
        try #require(result.errors.count == overlaps, "\(result.errors)")
        try #require(result.errors.allSatisfy { $0.problem.contains(" overlaps ") }, "\(result.errors)")
        return result.apps
    }

    private func resolve(_ link: String, _ resolver: LinkResolver) throws -> Resolution {
        try resolver.resolve(LinkURL(parsing: link))
    }

    @Test func aConfiguredFormatNamesTheAppAndReadsWithItsFamily() throws {
        let resolver = LinkResolver(apps: try apps(["notes.json": ConfigLoaderTests.notes]), fallbackToBuiltIns: false)
        let recovery = try resolve(LinkFixtures.supabaseSession(redirectTo: "com.example.notes://reset"), resolver)
        #expect(recovery.app?.app == "com.example.Notes")
        #expect(recovery.route.id == "supabase.recovery")
        #expect(recovery.link?.action.keyword == "reset")
        let reset = try resolve("https://NOTES.example.com/reset/?token=t1&tokenId=i1", resolver)
        #expect(reset.route.id == "appservices.reset")
        #expect(reset.route.fields["token"]?.secret?.revealed() == "t1")
    }

    @Test func aClaimedLinkThatFitsNoRuleOfItsFamilyIsAFormatMismatch() throws {
        let resolver = LinkResolver(apps: try apps(["notes.json": ConfigLoaderTests.notes]), fallbackToBuiltIns: true)
        #expect(throws: RouteError.refused(.formatMismatch, part: .parameters, "the link is not a 'supabase' link")) {
            try resolve("com.example.notes://reset?token=t&tokenId=i", resolver)
        }
    }

    @Test func aFormatLessLinkCarriesCapturesAndParametersWithSecretsChecked() throws {
        let resolver = LinkResolver(apps: try apps(["notes.json": ConfigLoaderTests.notes]), fallbackToBuiltIns: false)
        let note = try resolve("com.example.notes://note/7?x=1&id=ignored&code=c0de#y=2", resolver)
        #expect(note.route.id == "com.example.notes://note/{id}")
        #expect(note.route.fields.names == ["id", "x", "code", "y"])
        #expect(note.route.fields["id"] == .text("7"))
        #expect(note.route.fields["code"]?.secret?.revealed() == "c0de")
        #expect(throws: RouteError.refused(.malformedSecret, part: .query, "malformed secret 'code'")) {
            try resolve("com.example.notes://note/7?code=a%20b", resolver)
        }
        let shared = try resolve("com.example.notes://share/a/b%2Fc", resolver)
        #expect(shared.route.fields["path"] == .text("a/b/c"))
    }

    @Test func theFirstClaimInFileNameAndLinkOrderWins() throws {
        let resolver = LinkResolver(
            apps: try apps(
                [
                    "a.json": #"{"app": "org.a.App", "links": [{"match": "shared://x/{any}", "action": "forward"}]}"#,
                    "b.json": #"{"app": "org.b.App", "links": [{"match": "shared://x/exact", "action": "forward"}]}"#,
                ],
                overlaps: 1
            ),
            fallbackToBuiltIns: false
        )
        #expect(try resolve("shared://x/exact", resolver).app?.app == "org.a.App")
    }

    @Test func withoutAClaimItFallsBackOrExplains() throws {
        let configured = try apps(["notes.json": ConfigLoaderTests.notes])
        let fallback = try resolve("myapp://cb?code=c0de", LinkResolver(apps: configured, fallbackToBuiltIns: true))
        #expect(fallback.app == nil)
        #expect(fallback.route.id == "supabase.pkce")
        do {
            _ = try resolve("com.example.notes://settings", LinkResolver(apps: configured, fallbackToBuiltIns: false))
            Issue.record("expected unmatched")
        } catch let error as RouteError {
            guard case .unmatched(let explanation) = error else {
                Issue.record("expected unmatched, got \(error)")
                return
            }
            #expect(explanation.candidates.first?.mismatch == .host(expected: "reset", actual: "settings"))
        }
    }

    @Test func universalLinksAreClaimedOnlyForTheirHosts() throws {
        let resolver = LinkResolver(apps: try apps(["notes.json": ConfigLoaderTests.notes]), fallbackToBuiltIns: false)
        #expect(throws: RouteError.self) { try resolve("https://other.example.com/reset?token=t&tokenId=i", resolver) }
    }
}
