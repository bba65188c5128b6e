import Foundation
import Glibc
import LinkdTestSupport
import Testing

@testable import LinkdCLI

/// `linkd register`, `unregister` and `status` in a private XDG tree, and the click path the mail clients take:
/// `gio open` (no display) and `xdg-open` (with DISPLAY set) reaching `linkd open %u` and an exec action.
@Suite(.ownThread, .serialized) struct DesktopRegistrationTests {
    static let link = "myapp://note/7?x=1#access_token=eyJhbGciOiJIUzI1NiJ9.e30.c2ln&refresh_token=r-x_y"
    /// A second link: the same one opened again while its first run is in flight would be joined, not run twice.
    static let otherLink = "myapp://note/8?x=2#access_token=eyJhbGciOiJIUzI1NiJ9.e30.c2ln&refresh_token=q~z.w"

    private func run(_ path: String, _ arguments: [String], _ environment: [String: String]) throws -> Int32 {
        let process = try SpawnedProcess(path, arguments, environment: environment)
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func registersIdempotentlyWithAValidEntryAndKeepsOtherEntries() throws {
        let world = try DaemonHarness()
        let environment = world.desktopEnvironment
        try FileManager.default.createDirectory(at: world.config, withIntermediateDirectories: true)
        let existing =
            "# mine\n[Default Applications]\ntext/html=firefox.desktop\n\n[Added Associations]\nimage/png=eog.desktop;\n"
        try Data(existing.utf8).write(to: world.config.appendingPathComponent("mimeapps.list"))
        let first = try LinkdProcess.run(["register", "myapp", "Com.Example.Notes"], environment: environment)
        #expect(
            first
                == .init(
                    stdout: "registered: myapp, com.example.notes\n",
                    stderr: RegisterCommand.testBuildWarning,
                    status: 0
                )
        )
        let entry = try #require(world.file("data/applications/linkd.desktop"))
        #expect(
            entry == """
                [Desktop Entry]
                Type=Application
                Name=linkd
                Comment=Open password-reset and sign-in links in the app they belong to
                Exec=\(LinkdProcess.executable.path) open %u
                Terminal=false
                NoDisplay=true
                MimeType=x-scheme-handler/com.example.notes;x-scheme-handler/myapp;

                """
        )
        #expect(
            world.file("config/mimeapps.list") == """
                # mine
                [Default Applications]
                text/html=firefox.desktop
                x-scheme-handler/myapp=linkd.desktop
                x-scheme-handler/com.example.notes=linkd.desktop

                [Added Associations]
                image/png=eog.desktop;

                """
        )
        #expect(
            try run(
                "/usr/bin/desktop-file-validate",
                [world.root.path + "/data/applications/linkd.desktop"],
                environment
            ) == 0
        )
        #expect(FileManager.default.fileExists(atPath: world.root.path + "/data/applications/mimeinfo.cache"))
        let again = try LinkdProcess.run(["register", "myapp", "com.example.notes"], environment: environment)
        #expect(again.stdout == "already registered: myapp, com.example.notes\n")
        #expect(world.file("data/applications/linkd.desktop") == entry)
    }

    static let refusals = [
        ("https", "linkd never registers for 'https': it would take every such link from the browser"),
        ("http", "linkd never registers for 'http': it would take every such link from the browser"),
        ("mailto", "linkd never registers for 'mailto': it is never a link"),
        ("file", "linkd never registers for 'file': it is never a link"),
        ("1app", "'1app' is not a valid URL scheme (a letter, then letters, digits, '+', '-' or '.')"),
        ("my app", "'my app' is not a valid URL scheme (a letter, then letters, digits, '+', '-' or '.')"),
    ]

    /// A refused scheme is a usage error: the message, then the command's usage line, exit 64.
    private func refusal(_ message: String, _ command: String, usage: String) -> LinkdProcess.Output {
        .init(
            stdout: "",
            stderr: "Error: \(message)\nUsage: linkd \(command) \(usage)\n"
                + "  See 'linkd \(command) --help' for more information.\n",
            status: 64
        )
    }

    @Test(arguments: refusals)
    func refusesSchemesItMustNeverOwn(_ scheme: String, _ message: String) throws {
        let world = try DaemonHarness()
        let output = try LinkdProcess.run(["register", "myapp", scheme], environment: world.desktopEnvironment)
        #expect(output == refusal(message, "register", usage: "[--web | [--system] [<scheme> ...]]"))
        #expect(world.file("data/applications/linkd.desktop") == nil)  // all or nothing
    }

    @Test(arguments: refusals)
    func unregisterRefusesTheSameSchemes(_ scheme: String, _ message: String) throws {
        let world = try DaemonHarness()
        let environment = world.desktopEnvironment
        #expect(try LinkdProcess.run(["register", "myapp"], environment: environment).status == 0)
        let output = try LinkdProcess.run(["unregister", "myapp", scheme], environment: environment)
        #expect(output == refusal(message, "unregister", usage: "[--web | [--system] [<scheme> ...]]"))
        #expect(world.file("data/applications/linkd.desktop") != nil)  // all or nothing
    }

    @Test func registersTheCustomSchemesOfAppsDByDefault() throws {
        let world = try DaemonHarness()
        let output = try LinkdProcess.run(["register"], environment: world.desktopEnvironment)
        #expect(output.stdout == "registered: myapp\n")
    }

    @Test func gioAndXdgOpenDeliverTheLinkByteExactAndStopAfterUnregister() throws {
        let world = try DaemonHarness()
        let environment = world.desktopEnvironment
        #expect(try LinkdProcess.run(["register", "myapp"], environment: environment).status == 0)
        #expect(try run("/usr/bin/gio", ["open", Self.link], environment) == 0)
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 1 })
        var withDisplay = environment
        withDisplay["DISPLAY"] = ":99"
        #expect(try run("/usr/bin/xdg-open", [Self.otherLink], withDisplay) == 0)
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 2 })
        #expect(world.receivedPayloads().map { $0["url"] as? String } == [Self.link, Self.otherLink])

        let status = try LinkdProcess.run(["status"], environment: environment)
        #expect(status.stdout.contains("scheme myapp: GIO opens it with linkd.desktop (linkd)\n"))
        #expect(status.stdout.contains("daemon: listening on \(world.socketPath)\n"))
        #expect(status.stdout.contains("systemd: no user manager answers (linkd starts on demand)\n"))
        #expect(status.stdout.contains("apps: com.example.Notes (4 links)\n"))

        #expect(
            try LinkdProcess.run(["unregister", "myapp"], environment: environment).stdout == "unregistered: myapp\n"
        )
        #expect(world.file("data/applications/linkd.desktop") == nil)
        // gio found no handler and started nothing: no link can arrive.
        #expect(try run("/usr/bin/gio", ["open", Self.link], environment) != 0)
        #expect(world.receivedPayloads().count == 2)
        let after = try LinkdProcess.run(["status"], environment: environment)
        #expect(after.stdout.contains("scheme myapp: no handler (run 'linkd register myapp')\n"))
    }

    @Test func statusReportsAHandEditedEntryAndUnregisterKeepsForeignEntries() throws {
        let world = try DaemonHarness()
        let environment = world.desktopEnvironment
        #expect(try LinkdProcess.run(["register", "myapp"], environment: environment).status == 0)
        let path = world.root.path + "/data/applications/linkd.desktop"
        let edited = try String(contentsOfFile: path, encoding: .utf8).replacing(" open %u", with: " open \"%u\"")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: path))
        let status = try LinkdProcess.run(["status"], environment: environment)
        #expect(status.stdout.contains("  problem: Exec= has its %u quoted or joined to other text"))
        let list = world.config.appendingPathComponent("mimeapps.list")
        let foreign =
            try String(contentsOf: list, encoding: .utf8)
            + "\n[Added Associations]\nx-scheme-handler/myapp=other.desktop;linkd.desktop;\n"
        try Data(foreign.utf8).write(to: list)
        #expect(try LinkdProcess.run(["unregister", "myapp"], environment: environment).status == 0)
        let remaining = try String(contentsOf: list, encoding: .utf8)
        #expect(!remaining.contains("=linkd.desktop"))
        #expect(remaining.contains("x-scheme-handler/myapp=other.desktop;\n"))
    }

    @Test func anUnreadableMimeappsListIsReportedAndLeftByteForByte() throws {
        let world = try DaemonHarness()
        let environment = world.desktopEnvironment
        let list = world.config.appendingPathComponent("mimeapps.list")
        let bytes = Data("[Default Applications]\nx-scheme-handler/other=caf\u{e9}.desktop\n".utf8).map {
            $0 == 0xC3 ? 0xFF : $0  // a Latin-1 editor's work: not UTF-8
        }
        try Data(bytes).write(to: list)
        let registered = try LinkdProcess.run(["register", "myapp"], environment: environment)
        #expect(registered.status != 0)
        #expect(registered.stderr.contains("cannot read '\(list.path)'"))
        #expect(try Data(contentsOf: list) == Data(bytes))
        let status = try LinkdProcess.run(["status"], environment: environment)
        #expect(status.stdout.contains("mimeapps.list: \(list.path) cannot be read as UTF-8 text"))
        #expect(try Data(contentsOf: list) == Data(bytes))
    }

    @Test func aWebLinkIsUnmatchedNamingItsHost() throws {
        let world = try DaemonHarness()
        let output = try world.run(["open", "https://other.example.com/reset?token=t&tokenId=i"])
        #expect(output.status == 1)
        #expect(output.stderr == "Error: link 1: no app claims links to host 'other.example.com' [no_app]\n")
    }
}
