import Foundation
import LinkdConfig
import LinkdFormats
import LinkdRouting
import Testing

/// A temporary folder tree for config files, removed at the end of the test.
final class TempTree {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func folder(_ path: String) throws -> URL {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @discardableResult
    func write(_ path: String, _ text: String) throws -> URL {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }
}

@Suite struct ConfigLoaderTests {
    static let notes = """
        { "app": "com.example.Notes",
          "links": [ { "match": "com.example.notes://reset", "format": "supabase", "action": "reset" },
                     { "match": "https://notes.example.com/reset", "format": "appservices", "action": "reset",
                       "backend": { "kind": "appservices", "url": "https://services.cloud.mongodb.com", "appId": "notes-abcde" } },
                     { "match": "com.example.notes://note/{id}", "action": { "exec": ["notes", "--open-link"] } },
                     { "match": "com.example.notes://share/{path...}", "action": { "dbus": "com.example.Notes" } },
                     { "match": "com.example.notes://inbox", "action": "forward" } ],
          "backend": { "kind": "supabase", "url": "https://abcd.supabase.co", "apiKey": "anon-key" } }
        """

    @Test func loadsTheDesignExample() throws {
        let tree = try TempTree()
        try tree.write("apps.d/notes.json", Self.notes)
        let result = ConfigLoader(directories: [try tree.folder("apps.d")]).load()
        #expect(result.errors == [])
        let app = try #require(result.apps.first)
        #expect(app.app == "com.example.Notes")
        #expect(
            app.links.map(\.match.text) == [
                "com.example.notes://reset", "https://notes.example.com/reset", "com.example.notes://note/{id}",
                "com.example.notes://share/{path...}", "com.example.notes://inbox",
            ]
        )
        #expect(
            app.links.map(\.action) == [
                .reset, .reset, .exec(["notes", "--open-link"]), .dbus("com.example.Notes"), .forward,
            ]
        )
        #expect(app.links.map(\.format) == [.supabase, .appservices, nil, nil, nil])
        #expect(app.backend?.url.href == "https://abcd.supabase.co/")
        #expect(app.links[1].backend?.kind == .appServices(appID: "notes-abcde"))
    }

    static let broken: [(String, String, [String])] = [
        ("{", "bad.json", ["bad.json: $: not valid JSON"]),
        ("[]", "array.json", ["array.json: $: expected an object"]),
        (
            #"{"app": "notes", "links": []}"#, "id.json",
            [
                "id.json: $.app: 'notes' is not a reverse-DNS app id such as 'com.example.Notes'",
                "id.json: $.links: expected a non-empty array of links",
            ]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "action": "forward", "formt": "supabase"}]}"#, "key.json",
            ["key.json: $.links[0].formt: unknown key"]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "format": "okta", "action": "forward"}]}"#, "format.json",
            [
                "format.json: $.links[0].format: expected one of 'supabase', 'appservices', 'firebase', 'oauth', 'apple'"
            ]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y?q", "action": "forward"}]}"#, "match.json",
            [
                "match.json: $.links[0].match: invalid pattern 'x://y?q': a pattern has no query or fragment"
            ]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "format": "supabase", "action": "reset"}]}"#,
            "nobackend.json",
            [
                "nobackend.json: $.links[0].action: action 'reset' needs a backend (the app's or the link's)"
            ]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "action": {"exec": []}}]}"#, "exec.json",
            [
                "exec.json: $.links[0].action.exec: expected a non-empty array of non-empty strings (the program and its arguments)"
            ]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "action": "open"}]}"#, "action.json",
            [
                #"action.json: $.links[0].action: expected "reset", "forward", {"exec": [argv…]} or {"dbus": "app.id"}"#
            ]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "http://h.example/r", "action": "forward"}]}"#, "http.json",
            [
                "http.json: $.links[0].match: a link is claimed by scheme 'https', never 'http'"
            ]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "format": "supabase", "action": "reset"}], "backend": {"kind": "supabase", "url": "http://abcd.supabase.co", "apiKey": "k"}}"#,
            "plain.json",
            [
                "plain.json: $.backend.url: a backend is reached over https (plain http only for 127.0.0.1, ::1 or localhost)",
                "plain.json: $.links[0].action: action 'reset' needs a backend (the app's or the link's)",
            ]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "format": "appservices", "action": "reset"}], "backend": {"kind": "supabase", "url": "https://h.example", "apiKey": "k"}}"#,
            "kind.json",
            [
                "kind.json: $.backend: a 'supabase' backend cannot reset 'appservices' links"
            ]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "format": "firebase", "action": "reset"}]}"#, "firebase.json",
            [
                "firebase.json: $.links[0].format: action 'reset' needs format 'supabase' or 'appservices'"
            ]
        ),
    ]

    @Test func namesFileAndPathOfEveryProblemAndLoadsTheOtherApps() throws {
        let tree = try TempTree()
        let folder = try tree.folder("apps.d")
        try tree.write("apps.d/notes.json", Self.notes)
        for (text, name, _) in Self.broken { try tree.write("apps.d/\(name)", text) }
        let result = ConfigLoader(directories: [folder]).load()
        #expect(result.apps.map(\.app) == ["com.example.Notes"])
        let messages = result.errors.map { $0.description.replacingOccurrences(of: folder.path + "/", with: "") }
        for (_, name, expected) in Self.broken {
            #expect(messages.filter { $0.hasPrefix(name + ":") } == expected, "\(name)")
        }
    }

    @Test func theFirstFolderWinsForAFileNameAndFileNamesOrderTheApps() throws {
        let tree = try TempTree()
        let user = try tree.folder("home/linkd/apps.d")
        let system = try tree.folder("etc/linkd/apps.d")
        try tree.write(
            "home/linkd/apps.d/b.json",
            #"{"app": "org.user.B", "links": [{"match": "b://x", "action": "forward"}]}"#
        )
        try tree.write(
            "etc/linkd/apps.d/b.json",
            #"{"app": "org.system.B", "links": [{"match": "b://x", "action": "forward"}]}"#
        )
        try tree.write(
            "etc/linkd/apps.d/a.json",
            #"{"app": "org.system.A", "links": [{"match": "a://x", "action": "forward"}]}"#
        )
        try tree.write("etc/linkd/apps.d/notes.txt", "not a config")
        let result = ConfigLoader(directories: [user, system]).load()
        #expect(result.apps.map(\.app) == ["org.system.A", "org.user.B"])
        #expect(result.errors.isEmpty)
    }

    @Test func findsTheInstalledFoldersFromTheEnvironment() {
        let withXDG = ConfigLoader.installed(environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/u"])
        #expect(
            withXDG.directories.map(\.path) == [
                "/x/config/linkd/apps.d", "/etc/linkd/apps.d", "/usr/share/linkd/apps.d",
            ]
        )
        let withHome = ConfigLoader.installed(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "relative"])
        #expect(withHome.directories.first?.path == "/home/u/.config/linkd/apps.d")
    }
}
