import Foundation
import LinkdConfig
import LinkdRouting
import Testing

/// Programs of `exec` actions are found when the configuration is read, in fixed folders, and the link carries the
/// absolute path found.
@Suite struct ProgramSearchTests {
    @Test func looksInHomeLocalBinThenTheSystemFoldersNeverInPATH() {
        let search = ProgramSearch.installed(environment: ["HOME": "/home/u", "PATH": "/tmp/evil:."])
        #expect(search.directories == ["/home/u/.local/bin", "/usr/local/bin", "/usr/bin", "/bin"])
    }

    @Test func findsTheFirstExecutableFileOfTheName() throws {
        let tree = try TempTree()
        try tree.write("first/tool", "#!/bin/sh\n")  // not executable: skipped
        _ = try tree.folder("second/tool")  // a folder: skipped
        try tree.write("third/tool", "#!/bin/sh\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tree.root.path + "/third/tool")
        let search = ProgramSearch(directories: ["first", "second", "third"].map { tree.root.path + "/" + $0 })
        #expect(try search.resolve("tool") == tree.root.path + "/third/tool")
        #expect(throws: ProgramSearch.Failure.notFound("other", searched: search.directories)) {
            try search.resolve("other")
        }
    }

    @Test func takesAnAbsolutePathAsItIsWhenItIsAnExecutableFile() throws {
        let tree = try TempTree()
        let notes = try tree.program("notes")
        let search = tree.programs
        #expect(try search.resolve(notes) == notes)
        #expect(try search.resolve("notes") == notes)
        #expect(throws: ProgramSearch.Failure.missing("/nonexistent/notes")) {
            try search.resolve("/nonexistent/notes")
        }
        #expect(throws: ProgramSearch.Failure.notExecutable(tree.root.path)) { try search.resolve(tree.root.path) }
        #expect(throws: ProgramSearch.Failure.relative("bin/notes")) { try search.resolve("bin/notes") }
        #expect(throws: ProgramSearch.Failure.relative("./notes")) { try search.resolve("./notes") }
    }

    /// A program that cannot be found is a problem of its link alone: the link keeps the name as written (never an
    /// absolute path, so never run; the daemon says the program cannot be found), and the other links load.
    @Test func aMissingProgramIsAProblemOfItsLinkAlone() throws {
        let tree = try TempTree()
        let notes = try tree.program("notes")
        try tree.program("plain", mode: 0o644)
        try tree.write(
            "apps.d/notes.json",
            """
            {"app": "com.example.Notes", "links": [
              {"match": "notes://open/{id}", "action": {"exec": ["notes", "--open-link"]}},
              {"match": "notes://gone", "action": {"exec": ["notes-handler"]}},
              {"match": "notes://plain", "action": {"exec": ["plain"]}},
              {"match": "notes://inbox", "action": "forward"}]}
            """
        )
        let result = tree.loader(try tree.folder("apps.d")).load()
        let app = try #require(result.apps.first)
        #expect(app.links.map(\.match.text) == ["notes://open/{id}", "notes://gone", "notes://plain", "notes://inbox"])
        #expect(
            app.links.map(\.action.settings.summary) == [
                "exec \(notes) --open-link", "exec notes-handler", "exec plain", "forward",
            ]
        )
        let searched = "\(tree.root.path)/home/.local/bin:/usr/local/bin:/usr/bin:/bin"
        #expect(
            result.errors.map { "\($0.position): \($0.path): \($0.problem)" } == [
                "3:49: $.links[1].action.exec[0]: program 'notes-handler' not found in \(searched)",
                "4:50: $.links[2].action.exec[0]: program 'plain' not found in \(searched)",
            ]
        )
    }
}
