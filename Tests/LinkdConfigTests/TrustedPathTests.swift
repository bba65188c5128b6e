import Foundation
import Glibc
import LinkdConfig
import LinkdRouting
import LinkdSystem
import Testing

/// apps.d folders and files, and the programs of `exec` actions, are used only when no one but root and this user can
/// change them: they, and every folder above them, are owned by root or this user and writable by neither group nor
/// others, except that a sticky folder (like `/tmp`) may stand above them. The tests run as root in `/tmp`.
@Suite struct TrustedPathTests {
    static let app = #"{"app": "org.example.A", "links": [{"match": "a://x", "action": "forward"}]}"#
    static let other = #"{"app": "org.example.B", "links": [{"match": "b://x", "action": "forward"}]}"#

    /// Sets the mode of `path` in `tree`, sticky and set-id bits included.
    private func setMode(_ mode: mode_t, of path: String, in tree: TempTree) {
        #expect(chmod(tree.root.path + "/" + path, mode) == 0)
    }

    /// The problems of `result`, each with the tree's folder taken out of it.
    private func problems(_ result: ConfigLoader.Result, in tree: TempTree) -> [String] {
        result.errors.map { $0.description.replacingOccurrences(of: tree.root.path + "/", with: "") }
    }

    /// A link is checked where it stands as well as where it points: a trusted file reached through a link in a folder
    /// others can write is not trusted, since anyone could point that link elsewhere.
    @Test func aLinkInAFolderOthersCanWriteIsNotTrustedWhereverItPoints() throws {
        let tree = try TempTree()
        let file = try tree.write("good/a.json", Self.app)
        _ = try tree.folder("open")
        setMode(0o757, of: "open", in: tree)
        try FileManager.default.createSymbolicLink(
            atPath: tree.root.path + "/open/a.json",
            withDestinationPath: file.path
        )
        #expect(try TrustedPath(checking: file.path).resolved == file.path)
        #expect(throws: TrustedPath.Failure(path: tree.root.path + "/open", reason: .writableByOthers)) {
            try TrustedPath(checking: tree.root.path + "/open/a.json")
        }
    }

    /// Relative links and `..` are followed as the kernel follows them (`link/..` is the folder above the link's
    /// target); the walk may pass a sticky folder, and may not end on one.
    @Test func followsRelativeLinksAndRefusesToEndOnAStickyFolder() throws {
        let tree = try TempTree()
        let file = try tree.write("real/apps.d/a.json", Self.app)
        try FileManager.default.createSymbolicLink(
            atPath: tree.root.path + "/link",
            withDestinationPath: "real/./apps.d"
        )
        let checked = try TrustedPath(checking: tree.root.path + "/link/../apps.d/../apps.d/a.json")
        #expect(checked.resolved == file.path)
        #expect(try TrustedPath(checking: tree.root.path + "/link/a.json").resolved == file.path)
        _ = try tree.folder("sticky/mine")
        setMode(0o1777, of: "sticky", in: tree)
        #expect(try TrustedPath(checking: tree.root.path + "/sticky/mine").resolved == tree.root.path + "/sticky/mine")
        #expect(throws: TrustedPath.Failure(path: tree.root.path + "/sticky", reason: .writableByGroupAndOthers)) {
            try TrustedPath(checking: tree.root.path + "/sticky/mine/..")
        }
    }

    /// In a sticky folder what comes next must be root's or this user's, a link too: its owner can replace it.
    @Test func aLinkOfAnotherUserInAStickyFolderIsNotTrusted() throws {
        let tree = try TempTree()
        let file = try tree.write("good/a.json", Self.app)
        _ = try tree.folder("sticky")
        setMode(0o1777, of: "sticky", in: tree)
        let link = tree.root.path + "/sticky/a.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file.path)
        #expect(try TrustedPath(checking: link).resolved == file.path)
        #expect(lchown(link, 12345, 0) == 0)
        #expect(throws: TrustedPath.Failure(path: link, reason: .owner(12345))) { try TrustedPath(checking: link) }
        #expect(throws: TrustedPath.Failure(path: tree.root.path + "/gone", reason: .unreadable(ENOENT))) {
            try TrustedPath(checking: tree.root.path + "/gone/a.json")
        }
    }

    @Test func aGroupWritableAppsFolderIsAProblemAndNoneOfItsFilesLoad() throws {
        let tree = try TempTree()
        try tree.write("apps.d/a.json", Self.app)
        setMode(0o775, of: "apps.d", in: tree)
        let result = tree.loader(try tree.folder("apps.d")).load()
        #expect(result.apps.isEmpty)
        #expect(problems(result, in: tree) == ["apps.d:1:1: $: not trusted: 'apps.d' is writable by its group"])
    }

    @Test func aFileOthersCanWriteIsAProblemAndTheOthersLoad() throws {
        let tree = try TempTree()
        try tree.write("apps.d/a.json", Self.app)
        try tree.write("apps.d/b.json", Self.other)
        setMode(0o646, of: "apps.d/a.json", in: tree)
        let result = tree.loader(try tree.folder("apps.d")).load()
        #expect(result.apps.map(\.app) == ["org.example.B"])
        #expect(
            problems(result, in: tree) == ["apps.d/a.json:1:1: $: not trusted: 'apps.d/a.json' is writable by others"]
        )
    }

    /// The link's own folder is fine; the folder its target is in is not.
    @Test func aFileLinkedIntoAFolderOthersCanWriteIsAProblem() throws {
        let tree = try TempTree()
        try tree.write("shared/a.json", Self.app)
        setMode(0o777, of: "shared", in: tree)
        let folder = try tree.folder("apps.d")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/a.json",
            withDestinationPath: "../shared/a.json"
        )
        let result = tree.loader(folder).load()
        #expect(result.apps.isEmpty)
        #expect(
            problems(result, in: tree) == [
                "apps.d/a.json:1:1: $: not trusted: 'shared' is writable by its group and others"
            ]
        )
    }

    @Test func aFileOfAnotherUserIsAProblem() throws {
        let tree = try TempTree()
        let file = try tree.write("apps.d/a.json", Self.app)
        #expect(chown(file.path, 12345, 0) == 0)
        let result = tree.loader(try tree.folder("apps.d")).load()
        #expect(result.apps.isEmpty)
        #expect(
            problems(result, in: tree) == [
                "apps.d/a.json:1:1: $: not trusted: 'apps.d/a.json' is owned by another user (uid 12345)"
            ]
        )
    }

    /// A sticky folder others can write (`/tmp`, above every test's tree) may stand above an apps.d folder, since no one
    /// else can replace what this user put in it; as the apps.d folder itself it lets anyone add an app.
    @Test func aStickyFolderIsFineAboveAnAppsFolderButNotAsOne() throws {
        let tree = try TempTree()
        try tree.write("sticky/apps.d/a.json", Self.app)
        try tree.write("sticky/b.json", Self.other)
        setMode(0o1777, of: "sticky", in: tree)
        let result = tree.loader(try tree.folder("sticky/apps.d"), try tree.folder("sticky")).load()
        #expect(result.apps.map(\.app) == ["org.example.A"])
        #expect(
            problems(result, in: tree) == [
                "sticky:1:1: $: not trusted: 'sticky' is writable by its group and others"
            ]
        )
    }

    @Test func aGroupWritableProgramIsAProblemOfItsLinkAndTheLinkDoesNotLoad() throws {
        let tree = try TempTree()
        let notes = try tree.program("notes", mode: 0o775)
        try tree.write(
            "apps.d/notes.json",
            """
            {"app": "com.example.Notes", "links": [
              {"match": "notes://open/{id}", "action": {"exec": ["notes", "--open-link"]}},
              {"match": "notes://inbox", "action": "forward"}]}
            """
        )
        let result = tree.loader(try tree.folder("apps.d")).load()
        let app = try #require(result.apps.first)
        #expect(app.links.map(\.match.text) == ["notes://inbox"])
        #expect(
            result.errors.map { "\($0.position): \($0.path): \($0.problem)" } == [
                "2:54: $.links[0].action.exec[0]: program '\(notes)' is not trusted: '\(notes)' is writable by its group"
            ]
        )
    }

    @Test func aProgramInAFolderOthersCanWriteIsAProblemOfItsLink() throws {
        let tree = try TempTree()
        let tool = try tree.write("drop/tool", "#!/bin/sh\ncat\n")
        #expect(chmod(tool.path, 0o755) == 0)
        setMode(0o757, of: "drop", in: tree)
        try tree.write(
            "apps.d/a.json",
            """
            {"app": "org.example.A", "links": [
              {"match": "a://x", "action": {"signin": {"exec": ["\(tool.path)"]}}, "format": "supabase",
               "backend": {"kind": "supabase", "url": "https://abcd.supabase.co", "apiKey": "k"}},
              {"match": "a://y", "action": "forward"}]}
            """
        )
        let result = tree.loader(try tree.folder("apps.d")).load()
        let app = try #require(result.apps.first)
        #expect(app.links.map(\.match.text) == ["a://y"])
        #expect(
            result.errors.map { "\($0.position): \($0.path): \($0.problem)" } == [
                "2:53: $.links[0].action.signin.exec[0]: program '\(tool.path)' is not trusted: "
                    + "'\(tree.root.path)/drop' is writable by others"
            ]
        )
    }
}
