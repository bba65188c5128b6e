import Foundation
import Glibc
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

    /// The folders programs are looked up in, as for a user whose home folder is the tree's `home`.
    var programs: ProgramSearch { ProgramSearch(home: root.path + "/home") }

    /// A loader of `folders` that looks programs up under the tree's `home`.
    func loader(_ folders: URL...) -> ConfigLoader {
        ConfigLoader(directories: folders, programs: programs, actions: .linkd)
    }

    /// Writes an executable shell script `name` (mode `mode`) into `home/.local/bin` and returns its path.
    @discardableResult
    func program(_ name: String, mode: Int = 0o755) throws -> String {
        let url = try write("home/.local/bin/\(name)", "#!/bin/sh\ncat\n")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url.path
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

    @Test func loadsTheDesignExampleWithItsProgramResolved() throws {
        let tree = try TempTree()
        try tree.write("apps.d/notes.json", Self.notes)
        let notes = try tree.program("notes")
        let result = tree.loader(try tree.folder("apps.d")).load()
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
            app.links.map(\.action.settings.summary) == [
                "reset", "reset", "exec \(notes) --open-link", "dbus com.example.Notes", "forward",
            ]
        )
        #expect(app.links.map(\.format) == [.supabase, .appservices, nil, nil, nil])
        #expect(app.backend?.url.href == "https://abcd.supabase.co/")
        #expect(app.links[1].backend?.kind as? AppServicesSettings == .appServices(appID: "notes-abcde"))
    }

    @Test func theFirstFolderWinsForAFileNameAndFoldersThenFileNamesOrderTheApps() throws {
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
        try tree.write(
            "etc/linkd/apps.d/c.json",
            #"{"app": "org.system.C", "links": [{"match": "c://x", "action": "forward"}]}"#
        )
        try tree.write("etc/linkd/apps.d/notes.txt", "not a config")
        let result = tree.loader(user, system).load()
        #expect(result.apps.map(\.app) == ["org.user.B", "org.system.A", "org.system.C"])
        #expect(result.errors.isEmpty)
    }

    /// The user's folder comes first whatever the file names: a system app cannot take a link the user's app claims
    /// by a file name that sorts earlier.
    @Test func theUsersFolderWinsAnOverlapAgainstAnEarlierNamedSystemFile() throws {
        let tree = try TempTree()
        let user = try tree.folder("home/linkd/apps.d")
        let system = try tree.folder("etc/linkd/apps.d")
        try tree.write(
            "home/linkd/apps.d/z.json",
            #"{"app": "org.user.Z", "links": [{"match": "x://note/{id}", "action": "forward"}]}"#
        )
        try tree.write(
            "etc/linkd/apps.d/a.json",
            #"{"app": "org.system.A", "links": [{"match": "x://note/7", "action": "forward"}]}"#
        )
        let result = tree.loader(user, system).load()
        #expect(result.apps.map(\.app) == ["org.user.Z", "org.system.A"])
        #expect(
            result.errors.map(\.description) == [
                "\(system.path)/a.json:1:45: $.links[0].match: 'x://note/7' of 'org.system.A' overlaps 'x://note/{id}' "
                    + "of 'org.user.Z' in '\(user.path)/z.json', which wins: its folder is read first"
            ]
        )
        let resolver = LinkResolver(apps: result.apps, fallbackToBuiltIns: false)
        #expect(try resolver.resolve(LinkURL(parsing: "x://note/7")).app?.app == "org.user.Z")
    }

    static let overlapping: [(String, String, Bool)] = [
        ("x://note/{id}", "x://note/{n}", true), ("x://note/{id}", "x://note/7", true),
        ("x://note/7", "x://note/8", false), ("x://open/{rest...}", "x://open/a/b", true),
        ("x://open/{rest...}", "x://open", false), ("x://a", "y://a", false), ("x://a", "x://b", false),
        ("https://h.example/r", "https://H.EXAMPLE/r/", true), ("x://note/{id}", "x://note/{id}/more", false),
    ]

    @Test(arguments: overlapping)
    func patternsOverlapWhenOneLinkMatchesBoth(_ first: String, _ second: String, _ overlaps: Bool) throws {
        #expect(try RoutePattern(first).overlaps(RoutePattern(second)) == overlaps)
        #expect(try RoutePattern(second).overlaps(RoutePattern(first)) == overlaps)
    }

    @Test func twoAppsClaimingOneLinkIsAProblemNamingBothAndTheFirstStillWins() throws {
        let tree = try TempTree()
        let folder = try tree.folder("apps.d")
        try tree.write(
            "apps.d/a.json",
            #"{"app": "org.a.A", "links": [{"match": "x://note/{id}", "action": "forward"}]}"#
        )
        try tree.write(
            "apps.d/b.json",
            #"{"app": "org.b.B", "links": [{"match": "x://inbox", "action": "forward"}, {"match": "x://note/7", "action": "forward"}]}"#
        )
        let result = tree.loader(folder).load()
        #expect(result.apps.map(\.app) == ["org.a.A", "org.b.B"])
        #expect(
            result.errors.map(\.description) == [
                "\(folder.path)/b.json:1:85: $.links[1].match: 'x://note/7' of 'org.b.B' overlaps 'x://note/{id}' of "
                    + "'org.a.A' in '\(folder.path)/a.json', which wins: it comes first in file-name order"
            ]
        )
        let resolver = LinkResolver(apps: result.apps, fallbackToBuiltIns: false)
        #expect(try resolver.resolve(LinkURL(parsing: "x://note/7")).app?.app == "org.a.A")
    }

    @Test func aFileThatCannotBeReadIsAProblemAndTheOthersLoad() throws {
        let tree = try TempTree()
        let folder = try tree.folder("apps.d")
        try tree.write("apps.d/notes.json", #"{"app": "a.b", "links": [{"match": "x://y", "action": "forward"}]}"#)
        var garbage = SystemRandomNumberGenerator()
        try Data((0..<4_096).map { _ in UInt8.random(in: 0x80...0xFF, using: &garbage) }).write(
            to: folder.appendingPathComponent("garbage.json")
        )
        try Data(repeating: 0x20, count: 10_000_000).write(to: folder.appendingPathComponent("huge.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/loop.json", withDestinationPath: "loop.json")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/gone.json", withDestinationPath: "nothing")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/zero.json", withDestinationPath: "/dev/zero")
        _ = try tree.folder("apps.d/folder.json")
        #expect(mkfifo(folder.path + "/fifo.json", 0o600) == 0)
        let result = tree.loader(folder).load()
        #expect(result.apps.map(\.app) == ["a.b"])
        #expect(
            result.errors.map { $0.description.replacingOccurrences(of: folder.path + "/", with: "") } == [
                "fifo.json:1:1: $: cannot be read: not a regular file",
                "folder.json:1:1: $: cannot be read: not a regular file",
                "garbage.json:1:1: $: not valid JSON: unexpected character",
                "gone.json:1:1: $: cannot be read: a symlink to nothing",
                "huge.json:1:1: $: cannot be read: larger than 1 MiB",
                "loop.json:1:1: $: cannot be read: a symlink loop",
                "zero.json:1:1: $: cannot be read: not a regular file",
            ]
        )
    }

    @Test func findsTheInstalledFoldersFromTheEnvironment() {
        let withXDG = ConfigLoader.installed(
            environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/u"],
            actions: .linkd
        )
        #expect(
            withXDG.directories.map(\.path) == [
                "/x/config/linkd/apps.d", "/etc/linkd/apps.d", "/usr/share/linkd/apps.d",
            ]
        )
        let withHome = ConfigLoader.installed(
            environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "relative"],
            actions: .linkd
        )
        #expect(withHome.directories.first?.path == "/home/u/.config/linkd/apps.d")
    }
}
