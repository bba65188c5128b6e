import Foundation
import LinkdConfig
import LinkdRouting
import LinkdSystem
import LinkdWeb
import Testing

/// The index of the hosts apps.d may take web links of: what it lists, that it reads back what it writes, that any
/// change to apps.d makes it stale, that it is not kept while apps.d's files are still being written, and that a click
/// of a host it does not list goes to the browser without apps.d being read.
@Suite struct WebClaimIndexTests {
    static let notes = #"""
        {"app": "com.example.Notes",
         "backend": {"kind": "supabase", "url": "https://abcd.supabase.co", "apiKey": "anon"},
         "web": {"appleAppId": "ABCDE12345.com.example.notes"},
         "links": [{"match": "https://notes.example.com/reset", "format": "appservices", "action": "forward"},
                   {"match": "com.example.notes://reset", "format": "supabase", "action": "forward"}]}
        """#
    static let realm = #"""
        {"app": "com.example.Realm",
         "backend": {"kind": "appservices", "url": "https://services.cloud.mongodb.com", "appId": "realm-abcde"},
         "links": [{"match": "realm://reset", "format": "appservices", "action": "forward"}]}
        """#

    /// A home of its own: `config/linkd/apps.d` holding `files`, and the cache and runtime folders.
    private struct Home {
        let root: String
        var environment: [String: String] {
            [
                "HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_CACHE_HOME": root + "/cache",
                "XDG_RUNTIME_DIR": root + "/run", "XDG_STATE_HOME": root + "/state", "XDG_DATA_HOME": root + "/data",
            ]
        }
        var appsFolder: String { root + "/config/linkd/apps.d" }
        var indexPath: String { root + "/cache/linkd/web-claims" }
        var folders: [String] { [appsFolder, root + "/etc/linkd/apps.d"] }

        init(_ files: [String: String]) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("claims-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root + "/run", withIntermediateDirectories: true)
            chmod(root + "/run", 0o700)
            try FileManager.default.createDirectory(atPath: appsFolder, withIntermediateDirectories: true)
            for (name, text) in files { try write(name, text) }
        }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: appsFolder + "/" + name))
        }

        func apps() -> [AppConfig] {
            ConfigLoader(directories: folders.map { URL(fileURLWithPath: $0) }, actions: .linkd).load().apps
        }

        /// The index of the apps as they are now, written as if apps.d had settled long ago: the files' and folders'
        /// times are set an hour back first, so that a change the test makes next, in the same tick of the file
        /// system's clock, still shows.
        func writeSettledIndex() throws {
            let hourAgo = Date(timeIntervalSinceNow: -3_600)
            for source in WebClaimIndex.sources(of: folders) where source.stamp != nil {
                try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: source.path)
            }
            let index = WebClaimIndex(sources: WebClaimIndex.sources(of: folders), apps: apps())
            try index.write(to: indexPath, now: WallClock.seconds + 60)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func listsTheHostsOfHTTPSPatternsAndOfBackendsWithEmailedLinks() throws {
        let home = try Home(["notes.json": Self.notes, "realm.json": Self.realm])
        defer { home.remove() }
        #expect(home.apps().map(\.app) == ["com.example.Notes", "com.example.Realm"])
        let index = WebClaimIndex(sources: [], apps: home.apps())
        // The App Services backend has no emailed links of its own, and custom schemes are no web links.
        #expect(index.hosts == ["notes.example.com", "abcd.supabase.co"])
    }

    @Test func readsBackWhatItWritesAndNothingElse() throws {
        let stamp = FileStamp(
            device: 2049,
            inode: 77,
            mode: 0o100644,
            size: 353,
            modified: 1_700_000_000_123,
            changed: 1_700_000_001_5
        )
        let index = WebClaimIndex(
            sources: [.init(path: "/home/a b/.config/linkd/apps.d", stamp: stamp), .init(path: "/etc/x", stamp: nil)],
            hosts: ["notes.example.com", "abcd.supabase.co"]
        )
        #expect(WebClaimIndex(parsing: index.text) == index)
        #expect(
            index.text.hasPrefix("linkd web-claims 1\nsource 2049 77 33188 353 1700000000123 17000000015 /home/a b/")
        )
        let broken = [
            "", "linkd web-claims 2\nsource - /x\n", "linkd web-claims 1\n", "linkd web-claims 1\nsource - /x",
            "linkd web-claims 1\nsource 1 2 3 4 5 /x\n", "linkd web-claims 1\nsource a 2 3 4 5 6 /x\n",
            "linkd web-claims 1\nsource - /x\nhost a b\n", "linkd web-claims 1\nsource - /x\nhosts a\n",
        ]
        for text in broken { #expect(WebClaimIndex(parsing: text) == nil, "\(text.debugDescription)") }
    }

    @Test func anyChangeToAppsDMakesItStale() throws {
        let home = try Home(["notes.json": Self.notes])
        defer { home.remove() }
        try home.writeSettledIndex()
        #expect(WebClaimIndex.current(at: home.indexPath)?.hosts == ["notes.example.com", "abcd.supabase.co"])
        // A file written, a file added, the permissions of a file changed, a missing folder made: each is seen.
        let changes: [(String, () throws -> Void)] = [
            ("written", { try home.write("notes.json", Self.notes + " ") }),
            ("added", { try home.write("realm.json", Self.realm) }),
            ("mode", { chmod(home.appsFolder + "/notes.json", 0o600) }),
            (
                "folder",
                { try FileManager.default.createDirectory(atPath: home.folders[1], withIntermediateDirectories: true) }
            ),
        ]
        for (name, change) in changes {
            try home.writeSettledIndex()
            #expect(WebClaimIndex.current(at: home.indexPath) != nil, "\(name)")
            try change()
            #expect(WebClaimIndex.current(at: home.indexPath) == nil, "\(name)")
        }
    }

    @Test func isNotKeptWhileAppsDChangedWithinTheClocksTick() throws {
        let home = try Home(["notes.json": Self.notes])
        defer { home.remove() }
        try home.writeSettledIndex()
        let fresh = WebClaimIndex(sources: WebClaimIndex.sources(of: home.folders), apps: home.apps())
        // The file was written just now: a change within the same tick would leave the same stamp.
        try fresh.write(to: home.indexPath, now: WallClock.seconds)
        #expect(!FileManager.default.fileExists(atPath: home.indexPath))
    }

    @Test func aClickOfAHostNoAppListsGoesToTheBrowserWithoutReadingAppsD() throws {
        let home = try Home(["notes.json": Self.notes])
        defer { home.remove() }
        try home.writeSettledIndex()
        var context = WebContext(environment: home.environment)
        let link = "https://elsewhere.example.org/article?id=7"
        #expect(WebStep.decide(for: Array(link.utf8), &context) == .browser(link, recordsPass: true))
        #expect(context.apps == nil)

        // A link of a listed host is decided from apps.d.
        var claimed = WebContext(environment: home.environment)
        let reset = "https://notes.example.com/reset?token=t&tokenId=i"
        _ = WebStep.decide(for: Array(reset.utf8), &claimed)
        #expect(claimed.apps?.map(\.app) == ["com.example.Notes"])

        // Once apps.d changes, the next click reads it again: a new app claiming the host is seen at once.
        try home.write(
            "else.json",
            #"""
            {"app": "com.example.Else", "links": [{"match": "https://elsewhere.example.org/article", "action": "forward"}]}
            """#
        )
        var later = WebContext(environment: home.environment)
        _ = WebStep.decide(for: Array((link + "&again").utf8), &later)
        #expect(later.apps?.map(\.app).sorted() == ["com.example.Else", "com.example.Notes"])
    }
}
