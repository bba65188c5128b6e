import Foundation
import LinkdTestSupport
import Testing

/// `linkd check` run as a program on apps.d folders, compared with its exact output and exit code.
@Suite(.ownThread) struct CheckCommandTests {
    /// A folder with an `apps.d` and a home whose `.local/bin` holds a program `notes`; removed when it goes.
    final class World {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-check-\(UUID().uuidString)")
        var appsD: String { root.path + "/apps.d" }
        var home: String { root.path + "/home" }

        init() throws {
            try FileManager.default.createDirectory(atPath: root.path + "/apps.d", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: home + "/.local/bin", withIntermediateDirectories: true)
            try Data("#!/bin/sh\ncat\n".utf8).write(to: URL(fileURLWithPath: home + "/.local/bin/notes"))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: home + "/.local/bin/notes")
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: appsD + "/" + name))
        }

        /// Runs `linkd check` with `arguments` and this world's HOME (and its cache there, whatever the machine's
        /// `XDG_CACHE_HOME`).
        func check(_ arguments: [String], environment: [String: String] = [:]) throws -> LinkdProcess.Output {
            let world = ["HOME": home, "XDG_CACHE_HOME": home + "/.cache"]
            return try LinkdProcess.run(["check"] + arguments, environment: world.merging(environment) { $1 })
        }
    }

    static let notes = """
        {"app": "com.example.Notes", "links": [
          {"match": "notes://note/{id}", "action": {"exec": ["notes", "--open-link"]}},
          {"match": "notes://inbox", "action": "forward"}]}
        """

    @Test func saysOkWithTheAppsAndLinksItLoaded() throws {
        let world = try World()
        try world.write("notes.json", Self.notes)
        try world.write(
            "mail.json",
            #"{"app": "org.example.Mail", "links": [{"match": "mail://x", "action": "forward"}]}"#
        )
        #expect(
            try world.check(["--config", world.appsD]) == .init(stdout: "ok: 2 apps, 3 links\n", stderr: "", status: 0)
        )
        #expect(try world.check(["--json", "--config", world.appsD]) == .init(stdout: "", stderr: "", status: 0))
    }

    /// A `forward` app that its links start must have a desktop entry that can start it.
    @Test func flagsAForwardAppThatItsLinksStartButNothingCan() throws {
        let world = try World()
        let config =
            #"{"app": "com.example.Notes", "links": [{"match": "notes://x", "action": {"forward": {"start": "desktop"}}}]}"#
        try world.write("notes.json", config)
        let data = ["XDG_DATA_HOME": world.root.path + "/data", "XDG_DATA_DIRS": world.root.path + "/none"]
        let file = world.appsD + "/notes.json"
        let missing = try world.check(["--config", world.appsD], environment: data)
        #expect(
            missing.stdout
                == "\(file):1:73: $.links[0].action: nothing starts com.example.Notes: no desktop entry "
                + "com.example.Notes.desktop in the applications folders\n"
        )
        #expect(missing.status == 65)
        let applications = world.root.path + "/data/applications"
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        let entry = applications + "/com.example.Notes.desktop"
        try Data("[Desktop Entry]\nType=Application\nName=Notes\nExec=no-such-notes %U\n".utf8).write(
            to: URL(fileURLWithPath: entry)
        )
        let unfound = try world.check(["--config", world.appsD], environment: data)
        #expect(
            unfound.stdout.contains("nothing starts com.example.Notes: \(entry): program 'no-such-notes' not found")
        )
        #expect(unfound.status == 65)
        try Data("[Desktop Entry]\nType=Application\nName=Notes\nExec=notes %U\n".utf8).write(
            to: URL(fileURLWithPath: entry)
        )
        #expect(try world.check(["--config", world.appsD], environment: data).stdout == "ok: 1 app, 1 link\n")
        try Data("[Desktop Entry]\nType=Application\nDBusActivatable=true\n".utf8).write(
            to: URL(fileURLWithPath: entry)
        )
        #expect(try world.check(["--config", world.appsD], environment: data).status == 0)
    }

    @Test func printsEachProblemAtItsFileLineAndColumn() throws {
        let world = try World()
        try world.write("a.json", Self.notes)
        try world.write(
            "b.json",
            """
            {"app": "org.example.B", "links": [
              {"match": "notes://note/7", "acton": "forward"},
              {"match": "notes://b", "action": {"exec": ["notes-handler", "%u"]}},
              {"match": "notes://r", "format": "supabase", "action": "reset"}],
             "backend": {"kind": "supabase", "url": "https://abcd.supabase.co/auth/v1", "apiKey": "k"}}
            """
        )
        try world.write("c.json", "{\"app\": \"org.example.C\",\n \"links\": [],\n}\n")
        try world.write(
            "d.json",
            #"{"app": "org.example.D", "links": [{"match": "notes://note/{n}", "action": {"exec": ["notes"]}}]}"#
        )
        try FileManager.default.createSymbolicLink(atPath: world.appsD + "/loop.json", withDestinationPath: "loop.json")
        try Data(repeating: 0xFF, count: 10_000_000).write(to: URL(fileURLWithPath: world.appsD + "/huge.json"))
        let output = try world.check(["--config", world.appsD])
        let (folder, searched) = (world.appsD, "\(world.home)/.local/bin:/usr/local/bin:/usr/bin:/bin")
        #expect(
            output.stdout == """
                \(folder)/b.json:2:3: $.links[0].action: missing
                \(folder)/b.json:2:31: $.links[0].acton: unknown key; did you mean 'action'?
                \(folder)/b.json:3:46: $.links[1].action.exec[0]: program 'notes-handler' not found in \(searched)
                \(folder)/b.json:3:63: $.links[1].action.exec[1]: '%u' is passed as written: the program gets the link \
                as JSON on standard input, never in argv
                \(folder)/b.json:5:41: $.backend.url: ends in '/auth/v1', which linkd appends: use 'https://abcd.supabase.co'
                \(folder)/c.json:2:13: $: not valid JSON: a comma before '}'
                \(folder)/d.json:1:46: $.links[0].match: 'notes://note/{n}' of 'org.example.D' overlaps \
                'notes://note/{id}' of 'com.example.Notes' in '\(folder)/a.json', which wins: it comes first in \
                file-name order
                \(folder)/huge.json:1:1: $: cannot be read: larger than 1 MiB
                \(folder)/loop.json:1:1: $: cannot be read: a symlink loop

                """
        )
        #expect(output.stderr == "")
        #expect(output.status == 65)
    }

    @Test func printsOneJSONObjectPerProblem() throws {
        let world = try World()
        try world.write(
            "a.json",
            #"{"app": "a.b", "links": [{"match": "x://y", "action": {"exec": ["/bin/sh", "{url}"]}}]}"#
        )
        try world.write("b.json", "\u{1}\u{2}garbage")
        let output = try world.check(["--json", "--config", world.appsD])
        #expect(
            output.stdout == """
                {"file": "\(world.appsD)/a.json", "line": 1, "column": 76, "path": "$.links[0].action.exec[1]", \
                "problem": "'{url}' is passed as written: the program gets the link as JSON on standard input, never in argv"}
                {"file": "\(world.appsD)/b.json", "line": 1, "column": 1, "path": "$", "problem": "not valid JSON: \
                unexpected character"}

                """
        )
        #expect(output.status == 65)
    }

    @Test func checksTheInstalledFoldersWithoutConfig() throws {
        let world = try World()
        let config = world.root.appendingPathComponent("config/linkd/apps.d")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(Self.notes.utf8).write(to: config.appendingPathComponent("notes.json"))
        let environment = ["XDG_CONFIG_HOME": world.root.path + "/config"]
        #expect(
            try world.check([], environment: environment)
                == .init(stdout: "ok: 1 app, 2 links\n", stderr: "", status: 0)
        )
        try FileManager.default.removeItem(atPath: world.home + "/.local/bin/notes")
        #expect(
            try world.check([], environment: environment)
                == .init(
                    stdout: "\(config.path)/notes.json:2:54: $.links[0].action.exec[0]: program 'notes' not found in "
                        + "\(world.home)/.local/bin:/usr/local/bin:/usr/bin:/bin\n",
                    stderr: "",
                    status: 65
                )
        )
    }

    @Test func isListedAndExplainsItselfInItsHelp() throws {
        let output = try LinkdProcess.run(["check", "--help"])
        #expect(output.stdout.hasPrefix("OVERVIEW: Check the apps.d configuration and print each problem with its "))
        #expect(output.stdout.contains("\nUSAGE: linkd check [--json] [--config <dir>]\n"))
        #expect(output.stdout.contains("Each problem is printed as FILE:LINE:COLUMN: JSON-PATH: what is wrong."))
        #expect(output.status == 0)
        let top = try LinkdProcess.run(["--help"])
        #expect(
            top.stdout.contains("\n  check                   Check the apps.d configuration and print each problem ")
        )
    }

    @Test func refusesAConfigThatIsNotAFolderAndArguments() throws {
        let world = try World()
        #expect(
            try world.check(["--config", world.root.path + "/nothing"])
                == .init(stdout: "", stderr: "Error: '\(world.root.path)/nothing' is not a folder\n", status: 65)
        )
        #expect(
            try world.check(["extra"])
                == .init(
                    stdout: "",
                    stderr: """
                        Error: unknown option 'extra'
                        Usage: linkd check [--json] [--config <dir>]
                          See 'linkd check --help' for more information.

                        """,
                    status: 64
                )
        )
    }
}
